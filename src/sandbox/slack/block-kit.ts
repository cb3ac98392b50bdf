// The Block Kit limits Slack enforces, as pure checks. Each problem reads the way
// Slack words it: "must be less than 3001 characters [json-pointer:/blocks/0/text/text]".
import { randomBytes } from "node:crypto";

export type Surface = "message" | "modal" | "home";
export type Json = Record<string, unknown>;

const MAX_BLOCKS: Record<Surface, number> = { message: 50, modal: 100, home: 100 };
const BLOCK_TYPES = new Set([
  "actions",
  "context",
  "context_actions",
  "divider",
  "file",
  "header",
  "image",
  "input",
  "markdown",
  "rich_text",
  "section",
  "table",
  "video",
]);

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Problems with a list of blocks; empty when Slack would accept it. */
export function validateBlocks(blocks: unknown, surface: Surface, pointer = "/blocks"): string[] {
  const check = new Checker();
  check.blocks(blocks, surface, pointer);
  return check.errors;
}

/** Problems with a modal or App Home view, pointers under /view as views.* report them. */
export function validateView(view: unknown, kind: "modal" | "home"): string[] {
  const check = new Checker();
  if (!isObject(view)) return ["must provide an object [json-pointer:/view]"];
  if (view.type !== kind) check.fail("/view/type", `must be "${kind}"`);
  if (kind === "modal") {
    check.text(view.title, "/view/title", 24, { plainOnly: true, required: true });
    check.text(view.submit, "/view/submit", 24, { plainOnly: true });
    check.text(view.close, "/view/close", 24, { plainOnly: true });
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === "input");
    if (hasInput && view.submit === undefined)
      check.fail("/view/submit", "must provide submit when the view has input blocks");
  }
  check.length(view.callback_id, 255, "/view/callback_id");
  check.length(view.private_metadata, 3000, "/view/private_metadata");
  check.length(view.external_id, 255, "/view/external_id");
  check.blocks(view.blocks, kind, "/view/blocks");
  return check.errors;
}

class Checker {
  readonly errors: string[] = [];
  private readonly blockIds = new Set<string>();
  private readonly actionIds = new Set<string>();

  fail(pointer: string, problem: string): void {
    this.errors.push(`${problem} [json-pointer:${pointer}]`);
  }

  length(value: unknown, max: number, pointer: string): void {
    if (value === undefined) return;
    if (typeof value !== "string") return this.fail(pointer, "must provide a string");
    if (value.length > max) this.fail(pointer, `must be less than ${max + 1} characters`);
  }

  items(value: unknown, min: number, max: number, pointer: string): value is unknown[] {
    if (!Array.isArray(value)) {
      this.fail(pointer, "must provide an array");
      return false;
    }
    if (value.length < min) this.fail(pointer, `must provide at least ${min} items`);
    if (value.length > max) this.fail(pointer, `no more than ${max} items allowed`);
    return true;
  }

  text(value: unknown, pointer: string, max: number, options: { plainOnly?: boolean; required?: boolean } = {}): void {
    if (value === undefined) {
      if (options.required) this.fail(pointer, "must provide an object");
      return;
    }
    if (!isObject(value)) return this.fail(pointer, "must provide an object");
    const types = options.plainOnly ? ["plain_text"] : ["plain_text", "mrkdwn"];
    if (!types.includes(String(value.type))) this.fail(`${pointer}/type`, `must be one of ${types.join(", ")}`);
    if (typeof value.text !== "string") return this.fail(`${pointer}/text`, "must provide a string");
    if (value.text.length === 0) this.fail(`${pointer}/text`, "must be more than 0 characters");
    this.length(value.text, max, `${pointer}/text`);
  }

  blocks(blocks: unknown, surface: Surface, pointer: string): void {
    if (!this.items(blocks, 0, MAX_BLOCKS[surface], pointer)) return;
    blocks.forEach((block, i) => this.block(block, `${pointer}/${i}`));
    const of = (type: string) => blocks.filter((b) => isObject(b) && b.type === type) as Json[];
    if (of("table").length > 1) this.fail(pointer, "only one table block is allowed per message");
    const markdown = of("markdown").reduce((sum, b) => sum + (typeof b.text === "string" ? b.text.length : 0), 0);
    if (markdown > 12000) this.fail(pointer, "markdown blocks must be less than 12001 characters together");
  }

  private block(block: unknown, p: string): void {
    if (!isObject(block)) return this.fail(p, "must provide an object");
    const type = String(block.type);
    if (!BLOCK_TYPES.has(type)) return this.fail(`${p}/type`, `unsupported type: ${type}`);
    if (block.block_id !== undefined) {
      this.length(block.block_id, 255, `${p}/block_id`);
      if (this.blockIds.has(String(block.block_id)))
        this.fail(`${p}/block_id`, `duplicate block_id "${String(block.block_id)}"`);
      this.blockIds.add(String(block.block_id));
    }
    switch (type) {
      case "section":
        if (block.text === undefined && block.fields === undefined)
          this.fail(p, "must provide at least one of text or fields");
        this.text(block.text, `${p}/text`, 3000);
        if (block.fields !== undefined && this.items(block.fields, 1, 10, `${p}/fields`)) {
          block.fields.forEach((field, i) => this.text(field, `${p}/fields/${i}`, 2000, { required: true }));
        }
        if (block.accessory !== undefined) this.element(block.accessory, `${p}/accessory`);
        break;
      case "actions":
        if (this.items(block.elements, 1, 25, `${p}/elements`))
          block.elements.forEach((el, i) => this.element(el, `${p}/elements/${i}`));
        break;
      case "context":
        if (this.items(block.elements, 1, 10, `${p}/elements`)) {
          block.elements.forEach((el, i) =>
            isObject(el) && el.type === "image"
              ? this.element(el, `${p}/elements/${i}`)
              : this.text(el, `${p}/elements/${i}`, 3000, { required: true }),
          );
        }
        break;
      case "header":
        this.text(block.text, `${p}/text`, 150, { plainOnly: true, required: true });
        break;
      case "image":
        this.length(block.image_url, 3000, `${p}/image_url`);
        this.length(block.alt_text, 2000, `${p}/alt_text`);
        this.text(block.title, `${p}/title`, 2000, { plainOnly: true });
        break;
      case "input":
        this.text(block.label, `${p}/label`, 2000, { plainOnly: true, required: true });
        this.text(block.hint, `${p}/hint`, 2000, { plainOnly: true });
        if (block.element === undefined) this.fail(`${p}/element`, "must provide an object");
        else this.element(block.element, `${p}/element`);
        break;
      case "markdown":
        if (typeof block.text !== "string" || block.text === "") this.fail(`${p}/text`, "must provide a string");
        this.length(block.text, 12000, `${p}/text`);
        break;
      case "context_actions":
        if (this.items(block.elements, 1, 5, `${p}/elements`))
          block.elements.forEach((el, i) => this.element(el, `${p}/elements/${i}`));
        break;
      case "table":
        this.table(block, p);
        break;
    }
  }

  private table(block: Json, p: string): void {
    if (!this.items(block.rows, 1, 100, `${p}/rows`)) return;
    block.rows.forEach((row, r) => {
      if (!this.items(row, 1, 20, `${p}/rows/${r}`)) return;
      row.forEach((cell, c) => {
        const at = `${p}/rows/${r}/${c}`;
        if (!isObject(cell)) return this.fail(at, "must provide an object");
        if (cell.type === "raw_text") {
          if (typeof cell.text !== "string" || cell.text === "") this.fail(`${at}/text`, "must provide a string");
        } else if (cell.type !== "raw_number" && cell.type !== "rich_text")
          this.fail(`${at}/type`, "must be one of raw_text, raw_number, rich_text");
      });
    });
    if (block.column_settings !== undefined) this.items(block.column_settings, 0, 20, `${p}/column_settings`);
  }

  private element(el: unknown, p: string): void {
    if (!isObject(el)) return this.fail(p, "must provide an object");
    if (el.action_id !== undefined) {
      this.length(el.action_id, 255, `${p}/action_id`);
      if (this.actionIds.has(String(el.action_id)))
        this.fail(`${p}/action_id`, `duplicate action_id "${String(el.action_id)}"`);
      this.actionIds.add(String(el.action_id));
    }
    this.text(el.placeholder, `${p}/placeholder`, 150, { plainOnly: true });
    switch (el.type) {
      case "button":
        this.text(el.text, `${p}/text`, 75, { plainOnly: true, required: true });
        this.length(el.value, 2000, `${p}/value`);
        this.length(el.url, 3000, `${p}/url`);
        if (el.style !== undefined && el.style !== "primary" && el.style !== "danger")
          this.fail(`${p}/style`, "must be one of primary, danger");
        break;
      case "overflow":
        this.options(el.options, 1, 5, `${p}/options`);
        break;
      case "static_select":
      case "multi_static_select":
        if (el.options !== undefined || el.option_groups === undefined)
          this.options(el.options, 1, 100, `${p}/options`);
        break;
      case "radio_buttons":
      case "checkboxes":
        this.options(el.options, 1, 10, `${p}/options`, false);
        break;
      case "plain_text_input":
        if (typeof el.max_length === "number" && el.max_length > 3000)
          this.fail(`${p}/max_length`, "must be no more than 3000");
        break;
      case "image":
        this.length(el.alt_text, 2000, `${p}/alt_text`);
        break;
      case "feedback_buttons":
        for (const side of ["positive_button", "negative_button"]) {
          const b = el[side];
          if (!isObject(b)) {
            this.fail(`${p}/${side}`, "must provide an object");
            continue;
          }
          this.text(b.text, `${p}/${side}/text`, 75, { plainOnly: true, required: true });
          if (typeof b.value !== "string" || b.value === "") this.fail(`${p}/${side}/value`, "must provide a string");
          this.length(b.value, 2000, `${p}/${side}/value`);
          this.length(b.accessibility_label, 75, `${p}/${side}/accessibility_label`);
        }
        break;
    }
  }

  private options(options: unknown, min: number, max: number, p: string, plainOnly = true): void {
    if (!this.items(options, min, max, p)) return;
    options.forEach((option, i) => {
      if (!isObject(option)) return this.fail(`${p}/${i}`, "must provide an object");
      this.text(option.text, `${p}/${i}/text`, 75, { plainOnly, required: true });
      this.length(option.value, 150, `${p}/${i}/value`);
      this.text(option.description, `${p}/${i}/description`, 75, { plainOnly });
    });
  }
}

/** Slack gives every block without a block_id one of its own when it stores a message or view. */
export function withBlockIds(blocks: unknown): Json[] | undefined {
  if (!Array.isArray(blocks)) return undefined;
  return blocks.map(
    (block) =>
      (isObject(block) && block.block_id === undefined
        ? { ...block, block_id: randomBytes(3).toString("base64url") }
        : block) as Json,
  );
}

export interface Rendered {
  block_id: string;
  element: Json;
}

/** Elements a user can click or change in place, each with the block it sits in. */
export function interactiveElements(blocks: unknown): Rendered[] {
  const found: Rendered[] = [];
  for (const block of Array.isArray(blocks) ? blocks : []) {
    if (!isObject(block)) continue;
    const block_id = String(block.block_id ?? "");
    const add = (element: unknown) => {
      if (isObject(element) && typeof element.action_id === "string") found.push({ block_id, element });
    };
    if (block.type === "actions" || block.type === "context_actions")
      (Array.isArray(block.elements) ? block.elements : []).forEach(add);
    if (block.type === "section") add(block.accessory);
    if (block.type === "input" && block.dispatch_action === true) add(block.element);
  }
  return found;
}

/** The input elements of a view, as a submission reports them. */
export function inputElements(blocks: unknown): (Rendered & { optional: boolean })[] {
  const found: (Rendered & { optional: boolean })[] = [];
  for (const block of Array.isArray(blocks) ? blocks : []) {
    if (
      !isObject(block) ||
      block.type !== "input" ||
      !isObject(block.element) ||
      typeof block.element.action_id !== "string"
    )
      continue;
    found.push({ block_id: String(block.block_id ?? ""), element: block.element, optional: block.optional === true });
  }
  return found;
}

/** Options of a select-like element, including those inside option groups. */
export function optionsOf(element: Json): Json[] {
  const groups = Array.isArray(element.option_groups)
    ? element.option_groups.flatMap((g) => (isObject(g) && Array.isArray(g.options) ? g.options : []))
    : [];
  return [...(Array.isArray(element.options) ? element.options : []), ...groups].filter(isObject);
}
