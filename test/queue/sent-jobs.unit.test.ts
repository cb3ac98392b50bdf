// What a process remembers of the jobs it sent, for `drain`: bounded however long a bot runs.
import { describe, expect, it } from "vitest";
import { SentJobs } from "../../src/queue/engine.js";

describe("the jobs a process remembers for drain", () => {
  it("never holds more than its limit, forgetting the oldest first", () => {
    const sent = new SentJobs(3);
    for (let i = 0; i < 1000; i++) sent.add(`job-${i}`, "case-email");
    expect(sent.size).toBe(3);
    expect(sent.entries().map(([id]) => id)).toEqual(["job-997", "job-998", "job-999"]);
  });

  it("keeps a job sent again as the newest, and forgets a finished one", () => {
    const sent = new SentJobs(2);
    sent.add("a", "q");
    sent.add("b", "q");
    sent.add("a", "q");
    sent.add("c", "q");
    expect(sent.entries().map(([id]) => id)).toEqual(["a", "c"]);
    sent.forget("a");
    expect(sent.entries()).toEqual([["c", "q"]]);
  });
});
