import { useMemo, useState } from "react";
import { ActivityLog } from "./ActivityLog.tsx";
import { sampleApi } from "./api.ts";
import { ForumPane } from "./ForumPane.tsx";
import { useFailureClock } from "./failures.tsx";
import { useServerEvents } from "./hooks.ts";
import { MailPane } from "./MailPane.tsx";

export function App() {
  const [wrongKey, setWrongKey] = useState(false);
  const api = useMemo(() => sampleApi({ wrongKey }), [wrongKey]);
  const { freshStart } = useFailureClock();
  // What failed with the other key says nothing about this one; the lists reload by themselves.
  const switchKey = (wrong: boolean) => {
    setWrongKey(wrong);
    freshStart();
  };
  const { live, arrivals, deliveries, activity } = useServerEvents();
  return (
    <>
      <header className="top">
        <h1>Pigeonhole sample</h1>
        <span className={live ? "live on" : "live"}>{live ? "Live updates on" : "Connecting…"}</span>
        <label>
          <input type="checkbox" checked={wrongKey} onChange={(event) => switchKey(event.target.checked)} /> Use a wrong
          API key
        </label>
      </header>
      <main className="panes">
        <MailPane api={api} arrivals={arrivals} deliveries={deliveries} />
        <ForumPane api={api} />
      </main>
      <ActivityLog activity={activity} />
    </>
  );
}
