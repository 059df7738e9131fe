// Go's time.Time.String() of a metav1.Time in local time, as flux trace prints "Last reconciled at …":
// "2021-07-16 15:42:20 +0000 UTC".
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");

export function goTimeString(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const offsetMin = -d.getTimezoneOffset();
  const zone =
    offsetMin === 0 && /^(UTC|Etc\/UTC)?$/.test(process.env.TZ ?? "")
      ? "UTC"
      : (new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
          .formatToParts(d)
          .find((p) => p.type === "timeZoneName")?.value ?? "");
  const sign = offsetMin < 0 ? "-" : "+";
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ` +
    `${sign}${pad(Math.floor(Math.abs(offsetMin) / 60))}${pad(Math.abs(offsetMin) % 60)} ${zone}`
  );
}
