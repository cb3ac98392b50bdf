// The test suite's Slack is the sandbox's local Slack: one implementation of the Web
// API surface Pool Patrol uses.
export * from "../../../src/sandbox/slack/local-slack.js";
export { startLocalSlack as startFakeSlack } from "../../../src/sandbox/slack/local-slack.js";
