// The view_submission the sandbox sends for what a person chose in a modal: each input's state in the
// exact shape Slack sends (docs: "view_submission payload", bolt's ViewStateValue).
import { describe, expect, it } from "vitest";
import { type InputValue, viewSubmissionPayload } from "../../src/sandbox/slack/payloads.js";

const text = (t: string) => ({ type: "plain_text", text: t });
const opt = (value: string) => ({ text: text(value.toUpperCase()), value });
const input = (id: string, element: Record<string, unknown>, optional = false) => ({
  type: "input",
  block_id: `${id}_block`,
  label: text(id),
  optional,
  element: { action_id: id, ...element },
});

const view = {
  id: "V1",
  type: "modal",
  hash: "h",
  blocks: [
    input("note", { type: "plain_text_input", multiline: true, min_length: 5 }),
    input("rider", { type: "static_select", options: [opt("a"), opt("b")], initial_option: opt("b") }),
    input("lookup", { type: "external_select", initial_option: opt("far") }, true),
    input("several", { type: "multi_static_select", options: [opt("a"), opt("b"), opt("c")] }),
    input("who", { type: "multi_users_select" }),
    input("where", { type: "multi_conversations_select" }, true),
    input("one_user", { type: "users_select", initial_user: "U0ALEX" }),
    input("how", { type: "radio_buttons", options: [opt("x"), opt("y")] }),
    input("ticks", { type: "checkboxes", options: [opt("p"), opt("q")] }, true),
    input("when", { type: "datepicker" }),
    input("days", { type: "number_input", is_decimal_allowed: false }, true),
  ],
};

function stateOf(values: Record<string, InputValue>) {
  const form = viewSubmissionPayload({ user: { id: "U0ALEX" }, view, values, trigger_id: "1.2.abc" });
  return JSON.parse(new URLSearchParams(form).get("payload")!).view.state.values;
}

describe("the sandbox's view_submission state", () => {
  it("has the shape Slack sends for every input a person fills in", () => {
    const state = stateOf({
      note: "Moving in March",
      several: ["a", "c"],
      who: ["U0ALEX", "U0BLAIR"],
      where: [],
      how: "y",
      ticks: ["q"],
      when: "2026-12-04",
      days: "",
    });
    expect(state).toEqual({
      note_block: { note: { type: "plain_text_input", value: "Moving in March" } },
      // Left as shown: the initial option, as Slack sends it.
      rider_block: { rider: { type: "static_select", selected_option: opt("b") } },
      lookup_block: { lookup: { type: "external_select", selected_option: opt("far") } },
      several_block: { several: { type: "multi_static_select", selected_options: [opt("a"), opt("c")] } },
      who_block: { who: { type: "multi_users_select", selected_users: ["U0ALEX", "U0BLAIR"] } },
      where_block: { where: { type: "multi_conversations_select", selected_conversations: [] } },
      one_user_block: { one_user: { type: "users_select", selected_user: "U0ALEX" } },
      how_block: { how: { type: "radio_buttons", selected_option: opt("y") } },
      ticks_block: { ticks: { type: "checkboxes", selected_options: [opt("q")] } },
      when_block: { when: { type: "datepicker", selected_date: "2026-12-04" } },
      // An optional field left empty is null, not "".
      days_block: { days: { type: "number_input", value: null } },
    });
  });

  it("takes a choice by its value, and a cleared optional choice as none", () => {
    const state = stateOf({
      note: "Moving",
      rider: "a",
      lookup: null,
      several: ["b"],
      who: ["U0ALEX"],
      how: "x",
      when: "2026-01-02",
    });
    expect(state.rider_block.rider.selected_option).toEqual(opt("a"));
    expect(state.lookup_block.lookup.selected_option).toBeNull();
  });

  it("refuses what Slack's client would not let a person send", () => {
    // A name typed where a choice is asked for (the old sandbox's "Derek").
    expect(() =>
      stateOf({ note: "Moving", rider: "Derek", several: ["a"], who: ["U0ALEX"], how: "x", when: "2026-01-02" }),
    ).toThrow(/"rider" has no option "Derek" \(options: a, b\)/);
    expect(() => stateOf({ note: "Moving", several: ["a"], who: ["U0ALEX"], how: null, when: "2026-01-02" })).toThrow(
      /"how" is required/,
    );
  });
});
