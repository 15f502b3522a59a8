// The in-page half of `npm run bench:browser`, injected by Playwright before the page's own
// scripts (addInitScript, which CSP does not block) into our app and the naive client alike.
// Plain JS: it runs in the browser, and server/tsconfig.json (which includes ../bench) has no DOM.
//
// It finds MCU cards by accessible structure only, so it survives a redesign: a card is an
// <article> with an <h3> (the MCU name); its CO2 value is the <dd> after the <dt> "CO2", or else
// the number before "ppm" in the card's text. No class names.
//
// window.__benchConfig (set just before this script) = { expectedCards, valuePattern | null }.
(() => {
  if (window.__bench) return;
  const config = window.__benchConfig || { expectedCards: 1, valuePattern: null };
  /** The probes' CO2 carries their send time: co2 = Date.now() % CO2_MODULO_MS (bench/browser/replay-feed.ts). */
  const CO2_MODULO_MS = 100000;
  const SLOW_FRAME_MS = 33.4;

  const valuePattern = config.valuePattern ? new RegExp(config.valuePattern) : null;
  const load = { firstCardAt: null, visibleCardsAt: null, visibleCards: 0, done: false };
  const win = {
    measuring: false,
    startedAt: 0,
    frames: 0,
    slowFrames: 0,
    lastFrame: 0,
    worstFrameMs: 0,
    longTasks: 0,
    longTaskMs: 0,
    latencies: [],
  };

  const isCard = (a) => a.querySelector("h3") !== null;

  function checkLoad() {
    if (load.done) return;
    const articles = document.getElementsByTagName("article");
    if (load.firstCardAt === null) {
      for (const a of articles) {
        if (isCard(a)) {
          load.firstCardAt = performance.now();
          break;
        }
      }
      if (load.firstCardAt === null) return;
    }
    // Every card in the viewport shows its values, and the cards fill the viewport (or all are there).
    const vh = window.innerHeight;
    let visible = 0;
    let cards = 0;
    let filled = false;
    for (const a of articles) {
      if (!isCard(a)) continue;
      cards++;
      const r = a.getBoundingClientRect();
      if (r.top >= vh) {
        filled = true;
        break;
      }
      if (r.bottom <= 0 || r.height === 0) continue;
      visible++;
      if (valuePattern && !valuePattern.test(a.textContent || "")) return;
    }
    if (visible > 0 && (filled || cards >= config.expectedCards)) {
      load.visibleCardsAt = performance.now();
      load.visibleCards = visible;
      load.done = true;
    }
  }

  function frame(t) {
    if (win.measuring) {
      if (win.lastFrame) {
        const dt = t - win.lastFrame;
        win.frames++;
        if (dt > SLOW_FRAME_MS) win.slowFrames++;
        if (dt > win.worstFrameMs) win.worstFrameMs = dt;
      }
      win.lastFrame = t;
    }
    checkLoad();
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  try {
    new PerformanceObserver((list) => {
      if (!win.measuring) return;
      for (const e of list.getEntries()) {
        if (e.startTime < win.startedAt) continue;
        win.longTasks++;
        win.longTaskMs += e.duration;
      }
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // No Long Tasks API: the count stays 0 and the CDP busy time still tells.
  }

  // ---- probes: event-to-paint ----
  let probes = [];
  let probeNames = [];
  let pending = [];
  let stampScheduled = false;
  let recheckTimer = 0;
  const observer = new MutationObserver(onMutations);

  function cardNamed(name) {
    for (const h of document.getElementsByTagName("h3")) {
      if ((h.textContent || "").trim() === name) return h.closest("article");
    }
    return null;
  }

  function co2Of(article) {
    for (const dt of article.getElementsByTagName("dt")) {
      if ((dt.textContent || "").trim() === "CO2") {
        const dd = dt.nextElementSibling;
        const digits = dd ? (dd.textContent || "").replace(/[^\d]/g, "") : "";
        return digits ? Number(digits) : null;
      }
    }
    const m = /(\d[\d,.\u202f\u00a0 ]*)\s*ppm/.exec(article.textContent || "");
    return m ? Number(m[1].replace(/[^\d]/g, "")) : null;
  }

  function attachProbes() {
    observer.disconnect();
    probes = probeNames.map((name) => {
      const el = cardNamed(name);
      const previous = probes.find((p) => p.name === name);
      if (el) observer.observe(el, { subtree: true, childList: true, characterData: true });
      return { name, el, last: previous ? previous.last : el ? co2Of(el) : null };
    });
  }

  function onMutations() {
    for (const p of probes) {
      if (!p.el) continue;
      const v = co2Of(p.el);
      if (v === null || v === p.last) continue;
      p.last = v;
      pending.push(v);
    }
    if (pending.length && !stampScheduled) {
      stampScheduled = true;
      // The frame that shows the change: rAF runs before its paint, a task posted from rAF after it.
      requestAnimationFrame(() => setTimeout(stamp, 0));
    }
  }

  function stamp() {
    stampScheduled = false;
    const now = Date.now();
    if (win.measuring) {
      for (const v of pending) win.latencies.push((((now % CO2_MODULO_MS) - v) % CO2_MODULO_MS + CO2_MODULO_MS) % CO2_MODULO_MS);
    }
    pending = [];
  }

  window.__bench = {
    loadResult: () => ({ ...load }),
    /** Starts a measurement window; probeNames are the MCU names whose CO2 carries a send time. */
    startWindow(names) {
      probeNames = names || [];
      attachProbes();
      clearInterval(recheckTimer);
      // A virtualised grid may remount a card: observe the new element.
      recheckTimer = setInterval(() => {
        if (probes.some((p) => !p.el || !p.el.isConnected)) attachProbes();
      }, 500);
      Object.assign(win, { measuring: true, startedAt: performance.now(), frames: 0, slowFrames: 0, lastFrame: 0, worstFrameMs: 0, longTasks: 0, longTaskMs: 0, latencies: [] });
      return { probesFound: probes.filter((p) => p.el).length };
    },
    endWindow() {
      win.measuring = false;
      clearInterval(recheckTimer);
      observer.disconnect();
      return {
        durationMs: performance.now() - win.startedAt,
        frames: win.frames,
        slowFrames: win.slowFrames,
        worstFrameMs: win.worstFrameMs,
        longTasks: win.longTasks,
        longTaskMs: win.longTaskMs,
        latencies: win.latencies.slice(),
        probesFound: probes.filter((p) => p.el && p.el.isConnected).length,
      };
    },
    domElements: () => document.getElementsByTagName("*").length,
    mountedCards: () => Array.from(document.getElementsByTagName("article")).filter(isCard).length,
    /** Scrolls the page by `stepPx` every `everyMs` for `ms`, measuring frames meanwhile. */
    scrollTest(ms, stepPx, everyMs) {
      const startY = window.scrollY;
      window.__bench.startWindow([]);
      return new Promise((resolve) => {
        const timer = setInterval(() => window.scrollBy(0, stepPx), everyMs);
        setTimeout(() => {
          clearInterval(timer);
          const r = window.__bench.endWindow();
          resolve({ ...r, scrolledPx: window.scrollY - startY });
        }, ms);
      });
    },
  };
})();
