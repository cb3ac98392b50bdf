// The sandbox page: renders what the local Slack holds for the chosen user and sends
// what the person does back as Slack would. Plain JavaScript, no build step.

const $ = (id) => document.getElementById(id);
let state = null;
let user = localStorage.getItem("poolpatrol.user") || "";
let pane = "channel";
let openThread = null;
let renderedThreadCount = 0;

// ---------- mrkdwn (escape first, then Slack's formatting) ----------
const escapeHtml = (s) =>
  String(s)
    .replace(/&(?!amp;|lt;|gt;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
function slackDate(unix, format, fallback) {
  const d = new Date(Number(unix) * 1000);
  // As Slack does: in the reader's time zone, which for the sandbox's people is the program's.
  const timeZone = state?.timeZone;
  const date = d.toLocaleDateString("en-US", { timeZone, month: "short", day: "numeric", year: "numeric" });
  const time = d.toLocaleTimeString("en-US", { timeZone, hour: "numeric", minute: "2-digit" });
  if (!format) return fallback;
  return format
    .replace("{date_short_pretty}", date)
    .replace("{date_short}", date)
    .replace("{date}", date)
    .replace("{time}", time);
}
function userName(id) {
  if (state && id === state.botUserId) return "Pool Patrol";
  const found = state?.people.users.find((u) => u.id === id);
  return found ? found.name : id;
}
function mrkdwn(text) {
  // Slack sends &, <, > escaped; special tokens are <...> before escaping.
  const tokens = [];
  let s = String(text).replace(/<([^<>]+)>/g, (_, inner) => {
    let html;
    if (inner.startsWith("@"))
      html = `<span class="mention">@${escapeHtml(userName(inner.slice(1).split("|")[0]))}</span>`;
    else if (inner.startsWith("#"))
      html = `<span class="mention">#${escapeHtml(inner.split("|")[1] || state?.people.channel.name || inner.slice(1))}</span>`;
    else if (inner.startsWith("!date^")) {
      const [spec, fallback] = inner.split("|");
      const [, unix, format] = spec.split("^");
      html = escapeHtml(slackDate(unix, format, fallback));
    } else if (/^(https?:|mailto:)/.test(inner)) {
      const [href, label] = inner.split("|");
      html = `<a href="${escapeHtml(href)}" target="_blank" rel="noopener">${escapeHtml(label || href)}</a>`;
    } else html = escapeHtml(`<${inner}>`);
    tokens.push(html);
    return `\u0000${tokens.length - 1}\u0000`;
  });
  s = s.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  s = escapeHtml(s);
  s = s
    .replace(/```([\s\S]*?)```/g, (_, c) => `<pre><code>${c}</code></pre>`)
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=[\s).,:;!?]|$)/g, "$1<strong>$2</strong>")
    .replace(/(^|[\s(])_([^_\n]+)_(?=[\s).,:;!?]|$)/g, "$1<em>$2</em>")
    .replace(/(^|[\s(])~([^~\n]+)~(?=[\s).,:;!?]|$)/g, "$1<del>$2</del>");
  s = s
    .split("\n")
    .map((line) => (line.startsWith("&gt; ") ? `<blockquote>${line.slice(5)}</blockquote>` : line))
    .join("\n")
    .replace(/\n/g, "<br>")
    .replace(/<\/blockquote><br>/g, "</blockquote>");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL marks placeholders no typed text can contain
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => tokens[Number(i)]);
}
// ---------- markdown (streamed text and markdown blocks read standard markdown, not mrkdwn) ----------
function inlineMarkdown(escaped) {
  return escaped
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\n]+)\*(?![*\w])/g, "$1<em>$2</em>")
    .replace(/(^|[^_\w])_([^_\n]+)_(?![_\w])/g, "$1<em>$2</em>")
    .replace(/~~([^~\n]+)~~/g, "<del>$1</del>")
    .replace(
      /\[([^\]]+)\]\(((?:https?|mailto):[^)\s]+)\)/g,
      (_, label, href) => `<a href="${href}" target="_blank" rel="noopener">${label}</a>`,
    );
}
function markdown(text) {
  const out = [];
  let list = null;
  let items = [];
  const close = () => {
    if (list) out.push(`<${list}>${items.join("")}</${list}>`);
    list = null;
    items = [];
  };
  for (const raw of String(text).split("\n")) {
    const line = escapeHtml(raw);
    const bullet = /^\s*[-*•]\s+(.*)$/.exec(line);
    const item = bullet || /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (item) {
      const kind = bullet ? "ul" : "ol";
      if (list !== kind) close();
      list = kind;
      items.push(`<li>${inlineMarkdown(item[1])}</li>`);
      continue;
    }
    close();
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) out.push(`<div class="md-heading">${inlineMarkdown(heading[1])}</div>`);
    else if (line.startsWith("&gt; ")) out.push(`<blockquote>${inlineMarkdown(line.slice(5))}</blockquote>`);
    else out.push(line.trim() ? `<div>${inlineMarkdown(line)}</div>` : `<div class="md-gap"></div>`);
  }
  close();
  return out.join("");
}
function tableHtml(b) {
  const cell = (c) => escapeHtml(c.type === "rich_text" ? JSON.stringify(c.elements) : (c.text ?? ""));
  const [head = [], ...rows] = b.rows || [];
  // Slack keeps a table's cells on one line (column_settings is_wrapped) and scrolls a wide table sideways.
  const wrapped = (b.column_settings || []).map((s) => Boolean(s?.is_wrapped));
  return `<div class="block-table-scroll"><table class="block-table" data-wrapped="${escapeHtml(JSON.stringify(wrapped))}"><thead><tr>${head.map((c, i) => `<th${wrapped[i] ? ' class="wrapped"' : ""}>${cell(c)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => `<td${wrapped[i] ? ' class="wrapped"' : ""}>${cell(c)}</td>`).join("")}</tr>`)
    .join("")}</tbody></table></div>`;
}
function feedbackButtons(el, source) {
  const one = (b, title) =>
    `<button class="btn feedback" title="${title}" data-action="${escapeHtml(el.action_id)}" data-value="${escapeHtml(b.value)}" data-ts="${escapeHtml(source.ts || "")}" data-source="${source.kind}">${escapeHtml(b.text.text)}</button>`;
  return one(el.positive_button, "Good answer") + one(el.negative_button, "Bad answer");
}

const textOf = (t) => (!t ? "" : t.type === "plain_text" ? escapeHtml(t.text) : mrkdwn(t.text));

// ---------- Block Kit ----------
function button(el, source) {
  const cls = el.style ? ` ${el.style}` : "";
  const confirm = el.confirm ? ` data-confirm="${escapeHtml(JSON.stringify(el.confirm))}"` : "";
  return `<button class="btn${cls}" data-action="${escapeHtml(el.action_id)}" data-value="${escapeHtml(el.value || "")}" data-ts="${escapeHtml(source.ts || "")}" data-source="${source.kind}"${confirm}>${escapeHtml(el.text.text)}</button>`;
}
function blocks(list, source) {
  return (list || [])
    .map((b) => {
      switch (b.type) {
        case "header":
          return `<div class="block-header">${textOf(b.text)}</div>`;
        case "section":
          return `<div class="block-section">${b.text ? `<div>${textOf(b.text)}</div>` : ""}${b.fields ? `<div class="fields">${b.fields.map((f) => `<div>${textOf(f)}</div>`).join("")}</div>` : ""}${b.accessory && b.accessory.type === "button" ? `<div class="block-actions">${button(b.accessory, source)}</div>` : ""}</div>`;
        case "context":
          return `<div class="block-context">${(b.elements || []).map(textOf).join(" ")}</div>`;
        case "divider":
          return `<hr class="block-divider">`;
        case "markdown":
          return `<div class="block-markdown">${markdown(b.text || "")}</div>`;
        case "table":
          return tableHtml(b);
        case "context_actions":
          return `<div class="block-context-actions">${(b.elements || [])
            .filter((e) => e.type === "feedback_buttons")
            .map((e) => feedbackButtons(e, source))
            .join("")}</div>`;
        case "actions":
          return `<div class="block-actions">${(b.elements || [])
            .filter((e) => e.type === "button")
            .map((e) => button(e, source))
            .join("")}</div>`;
        case "input": {
          const field = inputField(b.element || {}, b.optional === true, state.people);
          const optional = b.optional ? ' <span class="hint">(optional)</span>' : "";
          const hint = b.hint ? `<div class="hint">${textOf(b.hint)}</div>` : "";
          const choices = ["radio_buttons", "checkboxes"].includes(b.element?.type);
          const labelled = choices
            ? `<fieldset><legend>${textOf(b.label)}${optional}</legend>${field}</fieldset>`
            : `<label>${textOf(b.label)}${optional}${field}</label>`;
          return `<div class="input-block" data-block="${escapeHtml(b.block_id || "")}">${labelled}${hint}<div class="error"></div></div>`;
        }
        default:
          return "";
      }
    })
    .join("");
}

// A shared file, as Slack shows it: a card with its name and type that downloads it.
function filesHtml(files) {
  return (files || [])
    .map((f) => {
      const href = `${new URL(f.url_private_download, location.href).pathname}?download=1`;
      const size = f.size < 1024 ? `${f.size} B` : `${(f.size / 1024).toFixed(1)} KB`;
      return `<a class="file" href="${escapeHtml(href)}" download="${escapeHtml(f.name)}"><span class="file-icon">${escapeHtml(f.pretty_type || "FILE")}</span><span><strong>${escapeHtml(f.title || f.name)}</strong><small>${escapeHtml(f.name)} · ${size} · Download</small></span></a>`;
    })
    .join("");
}

function messageHtml(m, options) {
  const isBot = Boolean(m.bot_id);
  const name = isBot ? "Pool Patrol" : userName(m.user);
  const time = new Date(Number(m.ts) * 1000).toLocaleTimeString("en-US", {
    timeZone: state.timeZone,
    hour: "numeric",
    minute: "2-digit",
  });
  // A streamed message is its markdown text, then the blocks its stream stopped with (a table, feedback);
  // once replaced by an update whose blocks carry the text, it is those blocks.
  const streamed = m.streaming !== undefined && !(m.blocks || []).some((b) => b.type === "markdown");
  const body = streamed
    ? `<div class="block-markdown">${markdown(m.text || "")}</div>${blocks(m.blocks, { kind: "message", ts: m.ts })}`
    : m.blocks?.length
      ? blocks(m.blocks, { kind: "message", ts: m.ts })
      : m.text || !m.files
        ? `<div>${mrkdwn(m.text || "")}</div>`
        : "";
  // A reply also sent to the channel opens its parent's thread, as in Slack; an ephemeral has no thread.
  const thread = m.thread_ts || m.ts;
  const replies =
    !options.threadLink || options.ephemeral
      ? ""
      : m.reply_count
        ? `<button class="thread-link" data-thread="${thread}">${m.reply_count} ${m.reply_count === 1 ? "reply" : "replies"}</button>`
        : `<button class="thread-link start" data-thread="${thread}">Reply in thread</button>`;
  return `<div class="message${options.ephemeral ? " ephemeral" : ""}" data-ts="${m.ts}">
    <div class="avatar${isBot ? "" : " person"}">${isBot ? "🚐" : escapeHtml(name[0] || "?")}</div>
    <div><div class="meta"><strong>${escapeHtml(name)}</strong>${isBot ? '<span class="app-badge">APP</span>' : ""}<time>${time}</time></div>
    ${body}${m.streaming ? '<span class="streaming-cursor" title="Still writing">▍</span>' : ""}${filesHtml(m.files)}${options.ephemeral ? '<div class="ephemeral-note">Only visible to you</div>' : ""}${replies}</div></div>`;
}

// ---------- rendering ----------
function render() {
  if (!state) return;
  const select = $("user");
  if (!select.options.length) {
    select.innerHTML = state.people.users.map((u) => `<option value="${u.id}">${escapeHtml(u.name)}</option>`).join("");
  }
  select.value = user;
  const me = state.people.users.find((u) => u.id === user);
  $("user-role").textContent = me ? me.role : "";

  const mine = state.ephemerals.filter((e) => !e.thread_ts);
  const timeline = [...state.messages.map((m) => ({ m, eph: false })), ...mine.map((m) => ({ m, eph: true }))].sort(
    (a, b) => Number(a.m.ts) - Number(b.m.ts),
  );
  const list = $("messages");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
  list.innerHTML = timeline.length
    ? timeline.map(({ m, eph }) => messageHtml(m, { ephemeral: eph, threadLink: true })).join("")
    : '<div class="empty">No messages yet. Try <code>/poolpatrol audit VP-111</code>.</div>';
  if (atBottom) list.scrollTop = list.scrollHeight;

  $("thread").classList.toggle("hidden", !openThread);
  if (openThread && state.thread) {
    const ephemerals = state.ephemerals.filter((e) => e.thread_ts === openThread);
    const all = [...state.thread.map((m) => ({ m, eph: false })), ...ephemerals.map((m) => ({ m, eph: true }))].sort(
      (a, b) => Number(a.m.ts) - Number(b.m.ts),
    );
    const threadList = $("thread-messages");
    const count = all.length;
    threadList.innerHTML = all.map(({ m, eph }) => messageHtml(m, { ephemeral: eph, threadLink: false })).join("");
    if (count !== renderedThreadCount) threadList.scrollTop = threadList.scrollHeight;
    renderedThreadCount = count;
  }
  const status = openThread ? state.threadStatus : "";
  $("thread-status").classList.toggle("hidden", !status);
  $("thread-status").textContent = status ? `Pool Patrol ${status}` : "";

  // The DM is an assistant thread, as in Slack's assistant view: its answers, its status, its suggested prompts.
  const assistant = state.assistant;
  const dmMessages = assistant ? assistant.messages : state.dm;
  const dmList = $("dm-messages");
  const dmAtBottom = dmList.scrollHeight - dmList.scrollTop - dmList.clientHeight < 60;
  dmList.innerHTML = dmMessages.length
    ? dmMessages.map((m) => messageHtml(m, { ephemeral: false, threadLink: false })).join("")
    : '<div class="empty">Ask Pool Patrol anything about a case, e.g. <code>why did CASE-48F81374 fail?</code></div>';
  if (dmAtBottom) dmList.scrollTop = dmList.scrollHeight;
  const prompts = assistant?.prompts;
  $("dm-prompts").classList.toggle("hidden", !prompts || dmMessages.length > 0);
  $("dm-prompts").innerHTML = prompts
    ? `<div class="prompts-title">${escapeHtml(prompts.title || "Try asking")}</div>${prompts.prompts
        .map(
          (p) =>
            `<button type="button" class="btn prompt" data-prompt="${escapeHtml(p.message)}">${escapeHtml(p.title)}</button>`,
        )
        .join("")}`
    : "";
  $("dm-status").classList.toggle("hidden", !assistant?.status);
  $("dm-status").textContent = assistant?.status ? `Pool Patrol ${assistant.status}` : "";

  $("home").innerHTML = state.home
    ? blocks(state.home.blocks, { kind: "home" })
    : '<div class="empty">Opening Home…</div>';
  renderModal();
}

let shownModal = null;
function renderModal() {
  const modal = state.modal;
  const overlay = $("modal");
  if (!modal) {
    overlay.classList.add("hidden");
    shownModal = null;
    return;
  }
  if (shownModal === modal.id + modal.hash) return; // keep what the person is typing
  shownModal = modal.id + modal.hash;
  overlay.innerHTML = `<form class="dialog" data-view="${modal.id}"><h2>${textOf(modal.title)}</h2>${blocks(modal.blocks, { kind: "view" })}
    <div class="dialog-actions"><button type="button" data-close="${modal.id}">${escapeHtml(modal.close ? modal.close.text : "Close")}</button>${modal.submit ? `<button type="submit" class="primary">${escapeHtml(modal.submit.text)}</button>` : ""}</div></form>`;
  overlay.classList.remove("hidden");
}

// ---------- talking to the sandbox ----------
async function refresh() {
  const query = new URLSearchParams({ user, ...(openThread ? { thread: openThread } : {}) });
  const response = await fetch(`/sandbox/state?${query}`);
  state = await response.json();
  // A fresh browser (or a person who no longer exists) starts as whom the sandbox chose: the first approver.
  if (user !== state.user) {
    user = state.user;
    localStorage.setItem("poolpatrol.user", user);
  }
  render();
}
async function post(path, body) {
  if (!state) await refresh();
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user, ...body }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) toast(answer.error || `Failed (${response.status})`);
  await refresh();
  return answer;
}
function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.classList.remove("hidden");
  setTimeout(() => el.classList.add("hidden"), 4000);
}

// ---------- events ----------
document.addEventListener("click", async (event) => {
  const target = event.target.closest("button");
  if (!target) return;
  if (target.dataset.thread) {
    openThread = target.dataset.thread;
    await refresh();
    return;
  }
  if (target.dataset.close) {
    await post("/sandbox/close", { view_id: target.dataset.close });
    return;
  }
  if (target.dataset.prompt) {
    await post("/sandbox/message", { text: target.dataset.prompt, dm: true, thread_ts: state.assistant?.thread_ts });
    return;
  }
  if (target.dataset.action) {
    if (target.dataset.confirm) {
      const c = JSON.parse(target.dataset.confirm);
      if (!window.confirm(`${c.title ? c.title.text : "Are you sure?"}\n\n${c.text?.text || ""}`)) return;
    }
    await post("/sandbox/action", {
      action_id: target.dataset.action,
      value: target.dataset.value,
      ts: target.dataset.ts,
      source: target.dataset.source,
    });
    return;
  }
  if (target.dataset.pane) {
    pane = target.dataset.pane;
    for (const b of document.querySelectorAll(".nav-item")) b.classList.toggle("active", b.dataset.pane === pane);
    $("pane-channel").classList.toggle("hidden", pane !== "channel");
    $("pane-home").classList.toggle("hidden", pane !== "home");
    $("pane-dm").classList.toggle("hidden", pane !== "dm");
    if (pane === "home") await post("/sandbox/home", {});
    if (pane === "dm") await post("/sandbox/assistant", {});
  }
});

$("modal").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const answer = await post("/sandbox/submit", { view_id: form.dataset.view, values: inputValues(form) });
  if (answer.errors) {
    shownModal = null;
    for (const [block, message] of Object.entries(answer.errors)) {
      const label = form.querySelector(`[data-block="${block}"] .error`);
      if (label) label.textContent = message;
    }
  }
});

$("composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("composer-text").value.trim();
  if (!text) return;
  $("composer-text").value = "";
  await post(text.startsWith("/") ? "/sandbox/command" : "/sandbox/message", { text });
});
$("thread-composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("thread-text").value.trim();
  if (!text) return;
  $("thread-text").value = "";
  await post("/sandbox/message", { text, thread_ts: openThread });
});
$("dm-composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("dm-text").value.trim();
  if (!text) return;
  $("dm-text").value = "";
  await post("/sandbox/message", { text, dm: true, thread_ts: state.assistant?.thread_ts });
});
$("close-thread").addEventListener("click", () => {
  openThread = null;
  refresh();
});
$("user").addEventListener("change", async (event) => {
  user = event.target.value;
  localStorage.setItem("poolpatrol.user", user);
  shownModal = null;
  await refresh();
  if (pane === "home") await post("/sandbox/home", {});
});

// Email panel
let threads = [];
$("open-email").addEventListener("click", async () => {
  threads = await (await fetch("/sandbox/email-threads")).json();
  $("email-thread").innerHTML =
    threads
      .map(
        (t) => `<option value="${t.thread_id}">${t.case_id} · ${t.vanpool_id} (${t.status.replace("_", " ")})</option>`,
      )
      .join("") || "<option value=''>No open case has emailed riders yet</option>";
  fillSenders();
  $("email-note").textContent = "";
  $("email").classList.remove("hidden");
});
function fillSenders() {
  const thread = threads.find((t) => t.thread_id === $("email-thread").value);
  $("email-from").innerHTML = (thread ? thread.riders : []).map((r) => `<option>${escapeHtml(r)}</option>`).join("");
}
$("email-thread").addEventListener("change", fillSenders);
$("email-cancel").addEventListener("click", () => $("email").classList.add("hidden"));
$("email-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await post("/sandbox/email", {
    thread_id: $("email-thread").value,
    from: $("email-from").value,
    body: $("email-body").value,
  });
  if (answer.ok) {
    $("email").classList.add("hidden");
    $("email-body").value = "";
    toast(answer.note);
  } else $("email-note").textContent = answer.error || "Not sent.";
});

refresh();
setInterval(refresh, 1500);
