// taku's web table: the one hand-written module. Pages come rendered from the server;
// this keeps the member's token, sends lines, follows the live socket (reconnecting),
// pages the log and guards the command line against IME conversions.

const ui = JSON.parse(document.body.dataset.ui || "{}");
const tokenKey = (id) => `taku:token:${id}`;
const hashParam = (name) => new URLSearchParams(location.hash.slice(1)).get(name);

// Copy buttons: a link's absolute address.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const url = new URL(button.dataset.copy, location.href).href;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = ui.copied;
  } catch {
    window.prompt("", url);
  }
});
for (const a of document.querySelectorAll("a[data-absolute]")) {
  a.textContent = new URL(a.getAttribute("href"), location.href).href;
}

const page = document.body.dataset.page;
if (page === "join") join();
if (page === "table") table();

function join() {
  const main = document.querySelector("[data-table]");
  const id = main.dataset.table;
  const form = document.getElementById("join");
  const error = document.getElementById("join-error");
  const invite = hashParam("invite");
  const fail = (text) => { error.textContent = text; error.hidden = false; };
  if (!invite) fail(ui.noInvite);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!invite) return;
    const name = form.elements.name.value.trim();
    const response = await fetch(`/api/v1/tables/${encodeURIComponent(id)}/join`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ invite, name }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) return fail(`${ui.joinFailed}: ${body.reason || response.status}`);
    localStorage.setItem(tokenKey(id), body.token);
    location.replace(`/t/${encodeURIComponent(id)}`);
  });
}

function table() {
  const root = document.querySelector("[data-table]");
  const id = root.dataset.table;
  const base = `/t/${encodeURIComponent(id)}`;
  const api = `/api/v1/tables/${encodeURIComponent(id)}`;
  const log = document.getElementById("log");
  const pane = log.parentElement;
  const older = document.getElementById("older");
  const status = document.getElementById("status");
  const error = document.getElementById("table-error");
  const side = document.getElementById("side");
  const line = document.getElementById("line");
  const form = document.getElementById("command");

  // The token: from the personal link's fragment (then out of the address bar), else
  // from this browser's storage.
  const fromLink = hashParam("token");
  if (fromLink) {
    localStorage.setItem(tokenKey(id), fromLink);
    history.replaceState(null, "", location.pathname + location.search);
  }
  const token = localStorage.getItem(tokenKey(id));
  const showError = (text) => { error.textContent = text; error.hidden = !text; };
  if (!token) {
    showError(ui.noToken);
    status.textContent = "";
    return;
  }
  // On a phone the character list starts folded, leaving the screen to the log.
  if (matchMedia("(max-width: 700px)").matches) document.getElementById("side-pane").open = false;
  const auth = { Authorization: `Bearer ${token}` };
  document.getElementById("copy-link").dataset.copy = `${base}#token=${token}`;

  const get = async (path) => {
    const response = await fetch(path, { headers: auth });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.reason || String(response.status));
    }
    return response;
  };

  // The log: entries keyed by seq; a newer rendering of an entry replaces the older.
  const parse = (html) => {
    const t = document.createElement("template");
    t.innerHTML = html;
    return [...t.content.children];
  };
  const seqOf = (li) => Number(li.dataset.seq);
  const atBottom = () => pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  const put = (li) => {
    const old = log.querySelector(`[data-seq="${li.dataset.seq}"]`);
    if (old) return old.replaceWith(li);
    const last = log.lastElementChild;
    if (!last || seqOf(last) < seqOf(li)) return log.append(li);
    const next = [...log.children].find((x) => seqOf(x) > seqOf(li));
    log.insertBefore(li, next);
  };
  let lastSeq = 0;
  const first = () => (log.firstElementChild ? seqOf(log.firstElementChild) : lastSeq + 1);

  const loadOlder = async () => {
    if (first() <= 1) return;
    const height = pane.scrollHeight;
    const html = await (await get(`${base}/entries?before=${first()}`)).text();
    parse(html).reverse().forEach((li) => log.prepend(li));
    pane.scrollTop += pane.scrollHeight - height;
    older.hidden = first() <= 1;
  };
  older.addEventListener("click", loadOlder);
  pane.addEventListener("scroll", () => {
    if (pane.scrollTop < 20 && !older.hidden) loadOlder().catch(() => {});
  });

  // Re-render what is loaded: an undo, a void or a reveal changes earlier entries.
  const refresh = async () => {
    const from = first();
    const html = await (await get(`${base}/entries?after=${from - 1}&limit=1000`)).text();
    parse(html).forEach(put);
  };
  let sideTimer = null;
  const invitesMade = [];
  const refreshSide = () => {
    clearTimeout(sideTimer);
    sideTimer = setTimeout(async () => {
      try {
        const html = await (await get(`${base}/side`)).text();
        // What the member opened and the invites made here outlive the re-rendering.
        const open = side.querySelector("details.gm-tools")?.open;
        side.innerHTML = html;
        const tools = side.querySelector("details.gm-tools");
        if (tools && open) tools.open = true;
        document.getElementById("new-invites")?.append(...invitesMade);
      } catch {}
    }, 150);
  };

  const start = async () => {
    try {
      const state = await (await get(api)).json();
      if (state.lang !== document.documentElement.lang) {
        const url = new URL(location.href);
        url.searchParams.set("lang", state.lang);
        return location.replace(url.href);
      }
      document.getElementById("table-name").textContent = state.name;
      document.title = state.name;
      const html = await (await get(`${base}/entries`)).text();
      parse(html).forEach(put);
      lastSeq = log.lastElementChild ? seqOf(log.lastElementChild) : 0;
      older.hidden = first() <= 1;
      pane.scrollTop = pane.scrollHeight;
      refreshSide();
      connect();
    } catch (e) {
      showError(String(e.message || e));
    }
  };

  // The live socket, reconnecting with backoff from the last entry it showed.
  let delay = 500;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}${api}/live?format=html&after=${lastSeq}&token=${encodeURIComponent(token)}`;
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      delay = 500;
      status.textContent = ui.connected;
      status.dataset.state = "open";
    });
    socket.addEventListener("message", (message) => {
      const { seq, html } = JSON.parse(message.data);
      const follow = atBottom();
      const [li] = parse(html);
      if (!li) return;
      put(li);
      lastSeq = Math.max(lastSeq, seq);
      // A new table language: the page's own words change too.
      if (li.dataset.kind === "language") return location.reload();
      if (["undone", "voided", "revealed"].includes(li.dataset.kind)) refresh().catch(() => {});
      refreshSide();
      if (follow) pane.scrollTop = pane.scrollHeight;
    });
    socket.addEventListener("close", () => {
      status.textContent = ui.reconnecting;
      status.dataset.state = "closed";
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  };

  // Compact mode: one line per entry, remembered per browser.
  const compact = document.getElementById("compact");
  const setCompact = (on) => {
    log.classList.toggle("compact", on);
    compact.setAttribute("aria-pressed", String(on));
    localStorage.setItem("taku:compact", on ? "1" : "");
  };
  setCompact(localStorage.getItem("taku:compact") === "1");
  compact.addEventListener("click", () => setCompact(!log.classList.contains("compact")));

  // Export: the member's own view of the whole log, downloaded with the token.
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", async () => {
      try {
        const ext = button.dataset.export;
        const blob = await (await get(`${base}/export.${ext}`)).blob();
        const a = document.createElement("a");
        a.href = URL.createObjectURL(blob);
        a.download = `taku-${id}.${ext}`;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      } catch (e) {
        showError(String(e.message || e));
      }
    });
  }

  // Sending: lines, reveals and the GM's buttons.
  const post = async (path, body) => {
    const response = await fetch(path, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: body === undefined ? "" : JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.reason || String(response.status));
    // A reply meant for this member alone (`/char show`, a refusal's hint) shows above.
    showError(answer.reply || "");
    return answer;
  };
  log.addEventListener("click", (event) => {
    const reveal = event.target.closest("[data-reveal]");
    const command = event.target.closest("[data-line]");
    const act = reveal
      ? post(`${api}/reveal/${reveal.dataset.reveal}`)
      : command ? post(`${api}/lines`, { line: command.dataset.line }) : null;
    if (act) act.catch((e) => showError(`${ui.sendFailed}: ${e.message}`));
  });

  // The chat palette: the member's characters' lines (in the side pane, with each
  // check's exact chance). Typing filters them into a list above the command line;
  // ↑/↓ pick one, Enter sends it; a click on a line in the side pane fills the line.
  const popup = document.getElementById("palette");
  let picked = -1;
  const paletteItems = () => [...side.querySelectorAll("#palette-source li[data-palette]")];
  const showPalette = () => {
    const typed = line.value.trim().toLowerCase();
    popup.replaceChildren();
    picked = -1;
    if (!typed || line.value.includes("\n")) { popup.hidden = true; return; }
    const matches = paletteItems()
      .filter((li) => li.dataset.palette.toLowerCase().includes(typed)
        || li.textContent.toLowerCase().includes(typed))
      .slice(0, 8);
    for (const li of matches) {
      const item = li.cloneNode(true);
      item.removeAttribute("id");
      item.setAttribute("role", "option");
      popup.append(item);
    }
    popup.hidden = matches.length === 0;
  };
  const pick = (i) => {
    const items = [...popup.children];
    if (!items.length) return;
    picked = (i + items.length) % items.length;
    items.forEach((li, n) => li.setAttribute("aria-selected", String(n === picked)));
  };
  line.addEventListener("input", showPalette);
  popup.addEventListener("mousedown", (event) => {
    const li = event.target.closest("li[data-palette]");
    if (!li) return;
    event.preventDefault();
    line.value = li.dataset.palette;
    popup.hidden = true;
    line.focus();
  });
  side.addEventListener("click", (event) => {
    const li = event.target.closest("li[data-palette]");
    if (!li) return;
    line.value = li.dataset.palette;
    line.focus();
  });

  // GM tools (in the side pane, for the GM only): new invites, the table's language.
  side.addEventListener("click", async (event) => {
    const invite = event.target.closest("[data-invite]");
    const command = event.target.closest("[data-line]");
    try {
      if (command) {
        await post(`${api}/lines`, { line: command.dataset.line });
      } else if (invite) {
        const answer = await post(`${api}/invites`, { role: invite.dataset.invite, count: 1 });
        const list = document.getElementById("new-invites");
        for (const { token, role } of answer.invites) {
          const url = new URL(`${base}/join#invite=${token}`, location.href).href;
          const li = document.createElement("li");
          li.className = "link";
          const a = Object.assign(document.createElement("a"), { href: url, textContent: `${role}: ${url}` });
          const copy = Object.assign(document.createElement("button"), { type: "button", textContent: ui.copy });
          copy.dataset.copy = url;
          li.append(a, " ", copy);
          invitesMade.push(li);
          list.append(li);
        }
      }
    } catch (e) {
      showError(`${ui.sendFailed}: ${e.message}`);
    }
  });

  // Import: a CCFOLIA character or a sheet, pasted.
  const importForm = document.getElementById("import");
  importForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const response = await fetch(`${base}/import`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "text/plain; charset=utf-8" },
        body: importForm.elements.sheet.value,
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(answer.reason || String(response.status));
      importForm.elements.sheet.value = "";
      showError(answer.reply || "");
    } catch (e) {
      showError(`${ui.sendFailed}: ${e.message}`);
    }
  });

  // History: ↑ on the first line goes back, ↓ on the last line forward.
  const historyKey = `taku:history:${id}`;
  const history_ = JSON.parse(localStorage.getItem(historyKey) || "[]");
  let back = history_.length;
  let draft = "";

  const send = async () => {
    const text = line.value;
    if (!text.trim()) return;
    try {
      await post(`${api}/lines`, { line: text });
      if (history_[history_.length - 1] !== text) history_.push(text);
      history_.splice(0, Math.max(0, history_.length - 200));
      localStorage.setItem(historyKey, JSON.stringify(history_));
      back = history_.length;
      line.value = "";
    } catch (e) {
      showError(`${ui.sendFailed}: ${e.message}`);
    }
  };
  form.addEventListener("submit", (event) => { event.preventDefault(); send(); });

  // IME: an Enter that confirms a conversion never sends. Chrome and Firefox mark it
  // isComposing (keyCode 229); Safari sends its keydown after compositionend, so an
  // Enter right after a composition ends is a confirmation too.
  let composing = false;
  let endedAt = -Infinity;
  line.addEventListener("compositionstart", () => { composing = true; });
  line.addEventListener("compositionend", () => { composing = false; endedAt = performance.now(); });
  line.addEventListener("keydown", (event) => {
    const ime = event.isComposing || event.keyCode === 229 || composing
      || performance.now() - endedAt < 50;
    if (event.key === "Enter") {
      if (ime || event.shiftKey) return;
      event.preventDefault();
      if (!popup.hidden && picked >= 0) line.value = popup.children[picked].dataset.palette;
      popup.hidden = true;
      send();
      return;
    }
    if (ime) return;
    if (!popup.hidden && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      const up = event.key === "ArrowUp";
      pick(picked < 0 ? (up ? popup.children.length - 1 : 0) : picked + (up ? -1 : 1));
      return;
    }
    if (event.key === "Escape") { popup.hidden = true; return; }
    const before = line.value.slice(0, line.selectionStart);
    const after = line.value.slice(line.selectionEnd);
    if (event.key === "ArrowUp" && !before.includes("\n") && back > 0) {
      if (back === history_.length) draft = line.value;
      back -= 1;
      line.value = history_[back];
      event.preventDefault();
    } else if (event.key === "ArrowDown" && !after.includes("\n") && back < history_.length) {
      back += 1;
      line.value = back === history_.length ? draft : history_[back];
      event.preventDefault();
    }
  });

  start();
}
