// POOLPATROL_WORKER_PROCESSES: how many `poolpatrol worker` processes a bot starts beside itself.
import { describe, expect, it } from "vitest";
import { parseSettings, SettingsError } from "../../src/config/settings.js";

describe("POOLPATROL_WORKER_PROCESSES", () => {
  it("is one worker process by default, and 0 keeps everything in the bot", () => {
    expect(parseSettings({}).workerProcesses).toBe(1);
    expect(parseSettings({ POOLPATROL_WORKER_PROCESSES: "" }).workerProcesses).toBe(1);
    expect(parseSettings({ POOLPATROL_WORKER_PROCESSES: "0" }).workerProcesses).toBe(0);
    expect(parseSettings({ POOLPATROL_WORKER_PROCESSES: "3" }).workerProcesses).toBe(3);
  });

  it.each(["two", "-1", "1.5", "17"])("refuses %s, naming the variable", (value) => {
    expect(() => parseSettings({ POOLPATROL_WORKER_PROCESSES: value })).toThrow(SettingsError);
    expect(() => parseSettings({ POOLPATROL_WORKER_PROCESSES: value })).toThrow(/POOLPATROL_WORKER_PROCESSES: /);
  });
});
