import { memo, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import type { WallSection } from "../../../contract/live.ts";
import { LoadError } from "../../components/states.tsx";
import { useListLoad } from "../../components/use-list-load.ts";
import { useConnection, useRecordIds, useWallPage } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { currentLocale, useLocale } from "../../i18n/i18n.ts";
import { ConnectionBanner } from "./connection-banner.tsx";
import { useFullscreen, useWakeLock } from "./kiosk.ts";
import { parseRotate, useRotation } from "./use-rotation.ts";
import { useWallLayout } from "./use-wall-layout.ts";
import { WallBar } from "./wall-bar.tsx";
import { countsText, formatCount } from "./wall-text.ts";
import { WallTile } from "./wall-tile.tsx";
import "./wall.css";

/**
 * A wall kept on for days still learns of MCUs and farms added or renamed elsewhere: the lists
 * are loaded again this often (which also keeps its session in use), and after every reconnect.
 */
const LIST_REFRESH_MS = 10 * 60_000;

/** One farm's part of the page: its heading with the whole farm's counts, and its tiles. Its words follow the language and digits (few sections to a page: a subscription each). */
const FarmSection = memo(function FarmSection({ section, columns, scale }: { section: WallSection; columns: number; scale: number }) {
  const { t } = useTranslation("wall");
  useLocale();
  const headingId = `wall-farm-${section.farmId}`;
  const { from, mcuIds, counts } = section;
  const part =
    from > 0 || mcuIds.length < counts.mcus
      ? ` ${t("section.part", { from: formatCount(from + 1), to: formatCount(from + mcuIds.length), total: formatCount(counts.mcus) })}`
      : "";
  return (
    <section aria-labelledby={headingId} className="wall-section" style={scale === 1 ? undefined : ({ "--wall-scale": scale } as CSSProperties)}>
      <div className="wall-heading">
        <h2 id={headingId}>
          {section.name}
          {part && <span className="wall-muted font-normal">{part}</span>}
        </h2>
        <p>{countsText(counts)}</p>
      </div>
      <div className="wall-grid" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {mcuIds.map((id) => (
          <WallTile key={id} mcuId={id} />
        ))}
      </div>
    </section>
  );
});

/** A loading or empty state, in the wall's type and colours (the app's are made for a light page). */
function WallNotice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="wall-notice">
      {children}
    </p>
  );
}

/** Tracks the connection: the lists are loaded again when it comes back after being lost. */
function useReloadOnReconnect(reload: () => void) {
  const state = useConnection().state;
  const lost = useRef(false);
  useEffect(() => {
    if (state === "reconnecting") lost.current = true;
    else if (state === "connected" && lost.current) {
      lost.current = false;
      reload();
    }
  }, [state, reload]);
}

/**
 * The manager's wall: every MCU of the client grouped by farm, trouble first within a
 * farm, at a size read from across a room, without the sidebar or anything that switches a device.
 * The core groups, orders and pages the whole fleet; only the page on screen crosses and only its
 * tiles subscribe (their card views, the dashboard's data path). Farms that do not fit one screen
 * go over pages that turn by themselves (`?rotate=` seconds, 0 off), held while someone uses it.
 */
export default function WallPage() {
  const { t } = useTranslation("wall");
  useLocale(); // re-renders on a change of digits, which the bar's clock, counts and page numbers are written in
  const { core } = useAppData();
  const mcuIds = useRecordIds("mcus");
  const [params, setParams] = useSearchParams();
  const rotateSec = parseRotate(params.get("rotate"));
  const setRotate = useCallback(
    (sec: number) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.set("rotate", String(sec));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const title = t("documentTitle");
  useEffect(() => {
    document.title = title;
  }, [title]);
  useWakeLock();
  const fullscreen = useFullscreen();

  const { state: farmsLoad, retry: retryFarms } = useListLoad({
    load: useCallback(() => core.loadFarms(), [core]),
    failure: { kind: "info", fallback: t("main.farmsFailed") },
    hasData: true,
  });
  const { state: mcusLoad, retry: retryMcus } = useListLoad({
    load: useCallback(() => core.loadMcus(), [core]),
    failure: { kind: "info", fallback: t("main.mcusFailed") },
    hasData: mcuIds.length > 0,
  });
  const reload = useCallback(() => {
    // Quiet: the wall keeps what it shows; the next refresh tries again.
    core.loadFarms().catch(() => undefined);
    core.loadMcus().catch(() => undefined);
  }, [core]);
  useReloadOnReconnect(reload);
  useEffect(() => {
    const timer = setInterval(reload, LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const mainRef = useRef<HTMLElement>(null);
  const sampleRef = useRef<HTMLElement>(null);
  const layout = useWallLayout(mainRef, sampleRef);
  // How many pages there are is the core's answer to the page asked for: the rotation turns over
  // the last answer's pages.
  const [pages, setPages] = useState(1);
  const rotation = useRotation(pages, rotateSec);
  const request = useMemo(() => (layout && mcuIds.length > 0 ? { ...layout, page: rotation.page } : null), [layout, mcuIds.length, rotation.page]);
  const wall = useWallPage(request);
  const wallPages = wall?.pages ?? 1;
  useEffect(() => setPages(wallPages), [wallPages]);

  // Arrows and Page Up/Down turn the pages (a key press also holds them, like any other). The
  // arrow that points the way the page reads goes forward, so the arrows swap in Arabic.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.altKey || e.ctrlKey || e.metaKey || target?.closest("select, input, textarea")) return;
      const [forward, back] = currentLocale().rtl ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
      if (e.key === forward || e.key === "PageDown") rotation.next();
      else if (e.key === back || e.key === "PageUp") rotation.previous();
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [rotation.next, rotation.previous]);

  const loadError = mcusLoad.status === "error" ? { message: mcusLoad.message, retry: retryMcus } : farmsLoad.status === "error" ? { message: farmsLoad.message, retry: retryFarms } : null;

  return (
    <div className={`wall ${rotation.inUse ? "" : "wall--idle"}`}>
      <WallBar counts={wall?.counts ?? null} pages={pages} rotation={rotation} rotateSec={rotateSec} onRotateChange={setRotate} fullscreen={fullscreen} />
      <ConnectionBanner />
      <main ref={mainRef} className="wall-main relative" aria-label={t("main.label")}>
        {/* What the layout is measured from: a heading and a tile of the least width, never shown. */}
        <section ref={sampleRef} className="wall-section wall-sample" aria-hidden="true">
          <div className="wall-heading">
            <h2>{t("main.sampleFarm")}</h2>
            <p>{t("counts.mcus", { count: 0 })}</p>
          </div>
          <div className="wall-grid">
            <div className="wall-tile" />
          </div>
        </section>
        {loadError && <LoadError text={loadError.message} onRetry={loadError.retry} />}
        {mcuIds.length === 0 ? (
          mcusLoad.status === "loading" ? (
            <WallNotice>{t("main.loading")}</WallNotice>
          ) : (
            mcusLoad.status === "ready" && (
              <WallNotice>
                {t("main.noMcus")}{" "}
                <Link to="/mcu" className="underline">
                  {t("main.addFirst")}
                </Link>
              </WallNotice>
            )
          )
        ) : !wall || !layout ? (
          <WallNotice>{t("main.layingOut")}</WallNotice>
        ) : (
          wall.sections.map((s) => <FarmSection key={`${s.farmId}:${s.from}`} section={s} columns={wall.columns} scale={wall.scale} />)
        )}
      </main>
    </div>
  );
}
