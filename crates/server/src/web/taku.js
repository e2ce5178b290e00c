// taku's web table: the one hand-written module. Pages come rendered from the server;
// this keeps the member's token, sends lines, follows the live socket (reconnecting),
// pages the log and guards the command line against IME conversions.

const ui = JSON.parse(document.body.dataset.ui || "{}");
const tokenKey = (id) => `taku:token:${id}`;
// The identity a browser held before a link or a new join replaced it, kept so that its
// link is not lost (A2-17).
const previousKey = (id) => `taku:token:${id}:previous`;
const roleWord = (role) => ({ gm: ui.roleGm, player: ui.rolePlayer, spectator: ui.roleSpectator })[role] || role;
// Who `token` is at table `id` ("name（role）"); null when there is no token or the server
// says it is no member token there (401, 403); undefined when the server could not say
// (429, 503, a network failure …): then the token may well be valid and is never replaced
// silently (A2-17).
const whoIs = async (id, token) => {
  if (!token) return null;
  try {
    const response = await fetch(`/api/v1/tables/${encodeURIComponent(id)}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (response.status === 401 || response.status === 403) return null;
    if (!response.ok) return undefined;
    const { you } = await response.json();
    return you && you.name ? `${you.name}（${roleWord(you.role)}）` : undefined;
  } catch {
    return undefined;
  }
};
const fill = (template, words) => template.replace(/\{(\w+)\}/g, (_, k) => words[k] ?? "");
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
    // Joining again from a browser that already takes part replaces its identity here:
    // asked first, and the old one kept (A2-17).
    const stored = localStorage.getItem(tokenKey(id));
    const current = await whoIs(id, stored);
    // A stored identity the server could not check is asked about as a valid one.
    if (current !== null && !confirm(fill(ui.joinAgain, { current: current ?? ui.unconfirmed }))) return;
    const name = form.elements.name.value.trim();
    const response = await fetch(`/api/v1/tables/${encodeURIComponent(id)}/join`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ invite, name }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) return fail(`${ui.joinFailed}: ${body.reason || response.status}`);
    if (current !== null) localStorage.setItem(previousKey(id), stored);
    localStorage.setItem(tokenKey(id), body.token);
    location.replace(`/t/${encodeURIComponent(id)}`);
  });
}

async function table() {
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

  const reply = document.getElementById("table-reply");
  const replyText = document.getElementById("reply-text");
  const showError = (text) => {
    error.textContent = text;
    error.hidden = !text;
    if (text) showReply("");
  };
  // A reply for this member alone (`/help`, `/char show`, a hint) is information, not
  // an error (W9-1, W9-6): shown apart, its lines kept, until closed or replaced.
  const showReply = (text) => {
    replyText.textContent = text;
    reply.hidden = !text;
    if (text) error.hidden = true;
  };
  document.getElementById("reply-close").addEventListener("click", () => showReply(""));
  // The token: from the personal link's fragment (then out of the address bar), else
  // from this browser's storage. A link never silently replaces an identity this
  // browser holds at the table (A2-17: a member's link posted in chat made whoever
  // opened it type as that member): when both are valid members, the user is asked,
  // naming both, and an identity replaced is kept aside. A stored token the server says
  // is not valid (401/403) is replaced; one it could not check (429, 503, offline) is
  // asked about as a valid one; a link not valid is ignored, said so.
  const fromLink = hashParam("token");
  const stored = localStorage.getItem(tokenKey(id));
  if (fromLink) history.replaceState(null, "", location.pathname + location.search);
  if (fromLink && fromLink !== stored) {
    const [current, offered] = await Promise.all([whoIs(id, stored), whoIs(id, fromLink)]);
    if (current === null) {
      localStorage.setItem(tokenKey(id), fromLink);
    } else if (offered === null) {
      showError(ui.linkInvalid);
    } else if (confirm(fill(ui.switchIdentity, {
      link: offered ?? ui.unconfirmed,
      current: current ?? ui.unconfirmed,
    }))) {
      localStorage.setItem(previousKey(id), stored);
      localStorage.setItem(tokenKey(id), fromLink);
    }
  }
  // A personal link opened while this page is open: read it as on a fresh load.
  window.addEventListener("hashchange", () => { if (hashParam("token")) location.reload(); });
  const token = localStorage.getItem(tokenKey(id));
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
  // Windowed: the page holds at most WINDOW entries, one contiguous run of seqs; scrolling
  // up loads older pages and drops the newest, scrolling down (or 「新しいログ」) loads
  // newer ones and drops the oldest, so a long log stays as fast as a short one.
  const WINDOW = 400;
  const parse = (html) => {
    const t = document.createElement("template");
    t.innerHTML = html;
    return [...t.content.children];
  };
  const seqOf = (li) => Number(li.dataset.seq);
  const atBottom = () => pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  let lastSeq = 0;        // the newest entry the server has told us of
  let atLatest = true;    // whether the window reaches the newest entry
  // The window holds the open tab's entries only, found by the server in the whole log
  // (a tab's talk far back in a long log is still there): it says where each page ended.
  let olderFrom = 1;      // the `before` that continues the window upward (1: nothing older)
  let newerFrom = 0;      // the `after` that continues it downward
  let tab = localStorage.getItem(`taku:tab:${id}`) || "main";
  // Bumped when the window is reloaded for another tab: a page asked for before that
  // is dropped when it arrives.
  let generation = 0;
  const fresh = (li) => !log.querySelector(`[data-seq="${li.dataset.seq}"]`);
  const fetchEntries = async (query) => {
    const response = await get(`${base}/entries?${query}&tab=${encodeURIComponent(tab)}`);
    return {
      items: parse(await response.text()),
      older: Number(response.headers.get("x-taku-older") || 1),
      newer: Number(response.headers.get("x-taku-newer") || 0),
    };
  };
  const first = () => (log.firstElementChild ? seqOf(log.firstElementChild) : lastSeq + 1);
  const last = () => (log.lastElementChild ? seqOf(log.lastElementChild) : lastSeq);
  const newer = document.getElementById("newer");
  const put = (li) => {
    const seq = seqOf(li);
    if (li.dataset.tab !== tab) return;
    showTab(li);
    // Outside the window: not shown (it is fetched when the window gets there).
    if (log.firstElementChild && seq < first()) return;
    if (!atLatest && seq > last()) return;
    const old = log.querySelector(`[data-seq="${seq}"]`);
    if (old) return old.replaceWith(li);
    const tail = log.lastElementChild;
    if (!tail || seqOf(tail) < seq) return log.append(li);
    const next = [...log.children].find((x) => seqOf(x) > seq);
    log.insertBefore(li, next);
  };
  // Drops entries beyond the window from the top (keeping what is on screen in place)
  // or from the bottom.
  const trimTop = () => {
    if (log.children.length <= WINDOW) return;
    const height = pane.scrollHeight;
    while (log.children.length > WINDOW) log.firstElementChild.remove();
    pane.scrollTop -= height - pane.scrollHeight;
    olderFrom = first();
    older.hidden = olderFrom <= 1;
  };
  const trimBottom = () => {
    if (log.children.length <= WINDOW) return;
    while (log.children.length > WINDOW) log.lastElementChild.remove();
    newerFrom = last();
    atLatest = false;
    newer.hidden = false;
  };

  let loading = false;
  const loadOlder = async () => {
    if (olderFrom <= 1 || loading) return;
    loading = true;
    try {
      const height = pane.scrollHeight;
      const asked = generation;
      const page = await fetchEntries(`before=${olderFrom}`);
      if (asked !== generation) return;
      page.items.reverse().filter(fresh).forEach((li) => log.prepend(li));
      pane.scrollTop += pane.scrollHeight - height;
      olderFrom = page.older;
      older.hidden = olderFrom <= 1;
      trimBottom();
      applyTab();
    } finally {
      loading = false;
    }
  };
  const loadNewer = async () => {
    if (atLatest || loading) return;
    loading = true;
    try {
      const asked = generation;
      const page = await fetchEntries(`after=${newerFrom}`);
      if (asked !== generation) return;
      page.items.filter(fresh).forEach((li) => log.append(li));
      newerFrom = page.newer;
      if (newerFrom >= lastSeq) {
        atLatest = true;
        newer.hidden = true;
      }
      trimTop();
      applyTab();
    } finally {
      loading = false;
    }
  };
  older.addEventListener("click", () => loadOlder().catch(() => {}));
  newer.addEventListener("click", () => loadNewer().catch(() => {}));
  pane.addEventListener("scroll", () => {
    if (pane.scrollTop < 20 && !older.hidden) loadOlder().catch(() => {});
    if (!atLatest && atBottom()) loadNewer().catch(() => {});
  });

  // Re-render what is loaded: an undo, a void or a reveal changes earlier entries.
  const refresh = async () => {
    const from = first();
    const count = Math.min(1000, Math.max(1, log.children.length));
    const page = await fetchEntries(`after=${from - 1}&limit=${count}`);
    page.items.forEach(put);
    applyTab();
  };

  // Tabs: メイン, 雑談 and the GM's, from the side pane; the log shows one at a time
  // (a stylesheet rule hides the others), a tab with news shows how many.
  const tabs = document.getElementById("tabs");
  const tabKey = `taku:tab:${id}`;
  const unread = new Map();
  const lineHint = document.getElementById("line-hint");
  const hintText = lineHint.textContent;
  // One tab at a time: the others' entries are hidden (the page's strict Content
  // Security Policy allows no inline style, so no stylesheet rule is written).
  const showTab = (li) => { li.hidden = li.dataset.tab !== tab; };
  const applyTab = () => {
    for (const li of log.children) showTab(li);
    lineHint.textContent = tab === "main" ? hintText : `${hintText} · ${ui.tabHint}`;
    for (const b of tabs.querySelectorAll("[data-tab]")) {
      const on = b.dataset.tab === tab;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
      const n = unread.get(b.dataset.tab) || 0;
      b.querySelector(".unread").textContent = n ? ` (${n})` : "";
      b.querySelector(".unread").title = n ? ui.unread : "";
    }
  };
  const buildTabs = () => {
    const source = side.querySelectorAll("#tab-source li[data-tab]");
    const ids = [...source].map((li) => li.dataset.tab);
    const shown = [...tabs.querySelectorAll("[data-tab]")].map((b) => b.dataset.tab);
    if (ids.join("\n") !== shown.join("\n")) {
      tabs.replaceChildren(...[...source].map((li) => {
        const b = document.createElement("button");
        b.type = "button";
        b.setAttribute("role", "tab");
        b.dataset.tab = li.dataset.tab;
        b.append(li.textContent, Object.assign(document.createElement("span"), { className: "unread" }));
        return b;
      }));
    }
    if (ids.length && !ids.includes(tab)) {
      tab = "main";
      reload().catch(() => {});
    }
    applyTab();
  };
  // The open tab's latest page, in place of whatever the window held.
  const reload = async () => {
    const asked = ++generation;
    olderFrom = 1;
    older.hidden = true;
    const page = await fetchEntries("");
    if (asked !== generation) return;
    log.replaceChildren();
    page.items.forEach(put);
    olderFrom = page.older;
    older.hidden = olderFrom <= 1;
    lastSeq = Math.max(lastSeq, page.newer);
    newerFrom = page.newer;
    atLatest = true;
    newer.hidden = true;
    applyTab();
    pane.scrollTop = pane.scrollHeight;
  };
  const choose = (id_) => {
    tab = id_;
    localStorage.setItem(tabKey, tab);
    unread.delete(tab);
    applyTab();
    reload().catch((e) => showError(String(e.message || e)));
  };
  tabs.addEventListener("click", (event) => {
    const b = event.target.closest("[data-tab]");
    if (b) choose(b.dataset.tab);
  });
  // Keyboard: ←/→ move between tabs (the WAI-ARIA tabs pattern).
  tabs.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const all = [...tabs.querySelectorAll("[data-tab]")];
    const i = all.findIndex((b) => b.dataset.tab === tab);
    const next = all[(i + (event.key === "ArrowRight" ? 1 : -1) + all.length) % all.length];
    if (next) { choose(next.dataset.tab); next.focus(); }
  });

  let sideTimer = null;
  const invitesMade = [];
  // Palette odds are computed by the server after the pane is drawn: while it says some
  // are pending, the pane is asked for again, a few times, a second apart.
  let oddsRetries = 0;
  const refreshSide = (delay = 150) => {
    clearTimeout(sideTimer);
    sideTimer = setTimeout(async () => {
      try {
        const response = await get(`${base}/side`);
        const pending = Number(response.headers.get("x-taku-odds-pending") || 0);
        const html = await response.text();
        if (pending > 0 && oddsRetries < 10) {
          oddsRetries += 1;
          setTimeout(() => refreshSide(0), 1000);
        } else if (pending === 0) {
          oddsRetries = 0;
        }
        // What the member opened and the invites made here outlive the re-rendering.
        const open = side.querySelector("details.gm-tools")?.open;
        // …and what is being typed there (a new tab's name), with the focus.
        const typed = [...side.querySelectorAll("input[name]")].map((i) => [i.name, i.value]);
        const focused = side.contains(document.activeElement) ? document.activeElement.name : null;
        side.innerHTML = html;
        for (const [name, value] of typed) {
          const input = side.querySelector(`input[name="${CSS.escape(name)}"]`);
          if (input) input.value = value;
        }
        if (focused) side.querySelector(`input[name="${CSS.escape(focused)}"]`)?.focus();
        const tools = side.querySelector("details.gm-tools");
        if (tools && open) tools.open = true;
        document.getElementById("new-invites")?.append(...invitesMade);
        buildTabs();
      } catch {}
    }, delay);
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
      if (state.you && state.you.name) {
        document.getElementById("whoami-name").textContent = `${state.you.name}（${roleWord(state.you.role)}）`;
      }
      document.title = state.name;
      const page = await fetchEntries("");
      page.items.forEach(put);
      lastSeq = page.newer;
      newerFrom = page.newer;
      olderFrom = page.older;
      older.hidden = olderFrom <= 1;
      applyTab();
      pane.scrollTop = pane.scrollHeight;
      requestAnimationFrame(() => { pane.scrollTop = pane.scrollHeight; });
      // For the benchmark (tools/bench-web.sh): the log is on screen.
      performance.mark("taku:first-render");
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
      if (seq > lastSeq && li.dataset.tab !== tab) {
        unread.set(li.dataset.tab, (unread.get(li.dataset.tab) || 0) + 1);
      }
      put(li);
      lastSeq = Math.max(lastSeq, seq);
      if (!atLatest) newer.hidden = false;
      else if (follow) trimTop();
      applyTab();
      // A new table language: the page's own words change too.
      if (li.dataset.kind === "language") return location.reload();
      if (["undone", "voided", "revealed"].includes(li.dataset.kind)) refresh().catch(() => {});
      refreshSide();
      if (follow) pane.scrollTop = pane.scrollHeight;
    });
    socket.addEventListener("close", async () => {
      status.textContent = ui.reconnecting;
      status.dataset.state = "closed";
      // A token the GM revoked (removed from the table, a new link issued) will never
      // connect again: say so instead of retrying for ever.
      try {
        const response = await fetch(api, { headers: auth });
        if (response.status === 401 || response.status === 403) {
          const body = await response.json().catch(() => ({}));
          status.textContent = "";
          showError(`${ui.noToken} (${body.reason || response.status})`);
          return;
        }
      } catch {}
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
    showError("");
    showReply(answer.reply || "");
    return answer;
  };
  const call = async (method, path) => {
    const response = await fetch(path, { method, headers: auth });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.reason || String(response.status));
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
    const remove = event.target.closest("[data-remove]");
    const relink = event.target.closest("[data-relink]");
    const revokeInvites = event.target.closest("[data-revoke-invites]");
    const member = (b) => encodeURIComponent(b.dataset.remove || b.dataset.relink);
    try {
      if (remove) {
        if (!confirm(`${remove.dataset.remove}${ui.confirmRemove}`)) return;
        await call("DELETE", `${api}/members/${member(remove)}`);
        showError(`${remove.dataset.remove}: ${ui.removed}`);
      } else if (relink) {
        if (!confirm(`${relink.dataset.relink}${ui.confirmRelink}`)) return;
        const answer = await call("POST", `${base}/members/${member(relink)}/link`);
        const url = new URL(answer.link, location.href).href;
        const li = document.createElement("li");
        li.className = "link";
        const a = Object.assign(document.createElement("a"), { href: url, textContent: `${answer.member} (${ui.newLinkMade}): ${url}` });
        const copy = Object.assign(document.createElement("button"), { type: "button", textContent: ui.copy });
        copy.dataset.copy = url;
        li.append(a, " ", copy);
        invitesMade.push(li);
        document.getElementById("new-invites").append(li);
      } else if (revokeInvites) {
        if (!confirm(ui.confirmRevokeInvites)) return;
        const answer = await call("DELETE", `${api}/invites`);
        invitesMade.splice(0).forEach((li) => li.remove());
        showError(`${ui.invitesRevoked} (${answer.revoked})`);
      } else if (command) {
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

  // The GM's new tab: `/tab new NAME`, a table command like any other.
  side.addEventListener("submit", async (event) => {
    const addTab = event.target.closest("#add-tab");
    if (!addTab) return;
    event.preventDefault();
    const name = addTab.elements.tab.value.trim();
    if (!name) return;
    try {
      await post(`${api}/lines`, { line: `/tab new ${name}` });
      addTab.elements.tab.value = "";
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
      showError("");
      showReply(answer.reply || "");
    } catch (e) {
      showError(`${ui.sendFailed}: ${e.message}`);
    }
  });

  // History: ↑ on the first line goes back, ↓ on the last line forward.
  const historyKey = `taku:history:${id}`;
  const history_ = JSON.parse(localStorage.getItem(historyKey) || "[]");
  let back = history_.length;
  let draft = "";

  // In a tab other than メイン a line is chat there (`/tab TAB …`); commands (`/…`) and
  // palette lines are sent as they are and land in メイン.
  const send = async () => {
    const text = line.value;
    if (!text.trim()) return;
    const palette = paletteItems().some((li) => li.dataset.palette === text);
    const sent = tab === "main" || /^[\/／]/.test(text.trimStart()) || palette
      ? text : `/tab ${tab} ${text}`;
    try {
      await post(`${api}/lines`, { line: sent });
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
