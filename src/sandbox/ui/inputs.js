// The sandbox's modal inputs: each Block Kit input element drawn as Slack draws it (its initial
// value or options chosen, its length rules enforced before submit, as Slack's client does), and the
// values read back by action_id for the view_submission. Plain JavaScript, loaded before app.js.

/* exported inputField, inputValues */

const escapeAttr = (s) =>
  String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The options of a select-like element: its own, those in option groups, and (external) the initial ones. */
function selectOptions(e) {
  if (e.option_groups) return e.option_groups.map((g) => ({ label: g.label.text, options: g.options || [] }));
  const external = [e.initial_option, ...(e.initial_options || [])].filter(Boolean);
  return [{ label: null, options: e.options || external }];
}

function optionTags(groups, chosen) {
  const tag = (o) =>
    `<option value="${escapeAttr(o.value)}"${chosen.includes(o.value) ? " selected" : ""}>${escapeAttr(o.text.text)}</option>`;
  return groups
    .map((g) =>
      g.label
        ? `<optgroup label="${escapeAttr(g.label)}">${g.options.map(tag).join("")}</optgroup>`
        : g.options.map(tag).join(""),
    )
    .join("");
}

function choiceList(e, kind, required, chosen) {
  const name = escapeAttr(e.action_id);
  return `<div class="choices" role="${kind === "radio" ? "radiogroup" : "group"}">${(e.options || [])
    .map(
      (o) =>
        `<label class="choice"><input type="${kind}" name="${name}" value="${escapeAttr(o.value)}"${chosen.includes(o.value) ? " checked" : ""}${required && kind === "radio" ? " required" : ""}> <span>${escapeAttr(o.text.text)}${o.description ? `<small>${escapeAttr(o.description.text)}</small>` : ""}</span></label>`,
    )
    .join("")}</div>`;
}

/**
 * The form field for one input block's element. `people` are the workspace's users and its channel
 * (for user and conversation pickers).
 */
// biome-ignore lint/correctness/noUnusedVariables: used by app.js
function inputField(e, optional, people) {
  const type = e.type;
  const name = escapeAttr(e.action_id);
  const req = optional ? "" : " required";
  const data = `name="${name}" data-kind="${escapeAttr(type)}"`;
  const placeholder = e.placeholder ? ` placeholder="${escapeAttr(e.placeholder.text)}"` : "";
  const lengths = `${e.min_length ? ` minlength="${e.min_length}"` : ""}${e.max_length ? ` maxlength="${e.max_length}"` : ""}`;
  const users = [{ label: null, options: people.users.map((u) => ({ value: u.id, text: { text: u.name } })) }];
  const channels = [
    { label: null, options: [{ value: people.channel.id, text: { text: `#${people.channel.name}` } }] },
  ];
  const select = (groups, chosen, multiple) =>
    `<select ${data}${req}${multiple ? " multiple" : ""}>${multiple ? "" : `<option value=""${chosen.length ? "" : " selected"}>${escapeAttr(e.placeholder ? e.placeholder.text : "Choose…")}</option>`}${optionTags(groups, chosen)}</select>`;
  switch (type) {
    case "plain_text_input":
      return e.multiline
        ? `<textarea ${data} rows="8"${req}${lengths}${placeholder}>${escapeAttr(e.initial_value || "")}</textarea>`
        : `<input ${data} value="${escapeAttr(e.initial_value || "")}"${req}${lengths}${placeholder}>`;
    case "email_text_input":
    case "url_text_input":
      return `<input type="${type === "email_text_input" ? "email" : "url"}" ${data} value="${escapeAttr(e.initial_value || "")}"${req}${placeholder}>`;
    case "number_input":
      return `<input type="number" ${data} value="${escapeAttr(e.initial_value || "")}" step="${e.is_decimal_allowed ? "any" : "1"}"${e.min_value ? ` min="${escapeAttr(e.min_value)}"` : ""}${e.max_value ? ` max="${escapeAttr(e.max_value)}"` : ""}${req}${placeholder}>`;
    case "static_select":
    case "external_select":
      return select(selectOptions(e), e.initial_option ? [e.initial_option.value] : [], false);
    case "multi_static_select":
    case "multi_external_select":
      return select(
        selectOptions(e),
        (e.initial_options || []).map((o) => o.value),
        true,
      );
    case "users_select":
      return select(users, e.initial_user ? [e.initial_user] : [], false);
    case "multi_users_select":
      return select(users, e.initial_users || [], true);
    case "conversations_select":
    case "channels_select":
      return select(channels, [e.initial_conversation || e.initial_channel].filter(Boolean), false);
    case "multi_conversations_select":
    case "multi_channels_select":
      return select(channels, e.initial_conversations || e.initial_channels || [], true);
    case "radio_buttons":
      return choiceList(e, "radio", !optional, e.initial_option ? [e.initial_option.value] : []);
    case "checkboxes":
      return choiceList(
        e,
        "checkbox",
        false,
        (e.initial_options || []).map((o) => o.value),
      );
    case "datepicker":
      return `<input type="date" ${data} value="${escapeAttr(e.initial_date || "")}"${req}>`;
    case "timepicker":
      return `<input type="time" ${data} value="${escapeAttr(e.initial_time || "")}"${req}>`;
    default:
      return `<input ${data} value="${escapeAttr(e.initial_value || "")}"${req}>`;
  }
}

/** What the form holds, by action_id: text as a string, a choice as its value (null when none), several as a list. */
// biome-ignore lint/correctness/noUnusedVariables: used by app.js
function inputValues(form) {
  const values = {};
  for (const field of form.querySelectorAll("[data-kind]")) {
    if (field.multiple) values[field.name] = [...field.selectedOptions].map((o) => o.value);
    else if (field.tagName === "SELECT" || field.type === "date" || field.type === "time")
      values[field.name] = field.value || null;
    else values[field.name] = field.value;
  }
  for (const group of form.querySelectorAll(".choices")) {
    const boxes = [...group.querySelectorAll("input")];
    const name = boxes[0]?.name;
    if (!name) continue;
    const checked = boxes.filter((b) => b.checked).map((b) => b.value);
    values[name] = boxes[0].type === "radio" ? (checked[0] ?? null) : checked;
  }
  return values;
}
