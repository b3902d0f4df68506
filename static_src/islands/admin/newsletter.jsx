// Newsletter section: subscribers with search and status filter, and a CSV export (Owner and Manager: the
// "export" right; every subscriber's e-mail at once is more than a look at the list).
import { Badge, can, DataTable, formatDateTime, Section, sectionStrings, StatCard, statusFilter, useServerList } from "./components/index.js";
import en from "../../i18n/en/admin-newsletter.json";
import ar from "../../i18n/ar/admin-newsletter.json";

const st = sectionStrings("admin-newsletter", en, ar);
// double opt-in: an address is mailed ("active") only once its owner confirmed it
const STATUS_BADGES = { active: "success", pending: "warning", unsubscribed: "neutral" };

export default function AdminNewsletter({ permissions }) {
  const table = useServerList("/api/admin/newsletter", { status: "" });
  const exportParams = new URLSearchParams();
  if (table.filters.status) exportParams.set("status", table.filters.status);
  if (table.search.trim()) exportParams.set("search", table.search.trim());
  const exportUrl = `/api/admin/newsletter/export${exportParams.size ? `?${exportParams}` : ""}`;

  const columns = [
    { key: "email", label: st("email"), render: (s) => <span dir="ltr">{s.email}</span> },
    {
      key: "isActive",
      label: st("statusLabel"),
      render: (s) => <Badge kind={STATUS_BADGES[s.status]}>{st(`status.${s.status}`)}</Badge>,
    },
    { key: "language", label: st("language"), render: (s) => st(`languages.${s.language}`, { defaultValue: s.language }) },
    { key: "createdAt", label: st("subscribed"), render: (s) => formatDateTime(s.createdAt) },
  ];

  return (
    <div className="admin-b-stack">
      <div className="admin-stats">
        <StatCard label={st("activeSubscribers")} value={table.data.activeCount ?? "–"} />
      </div>
      <Section>
        <DataTable
          table={table}
          label={st("tableLabel")}
          searchPlaceholder={st("searchPlaceholder")}
          columns={columns}
          filters={[statusFilter(st, ["active", "pending", "unsubscribed"])]}
          emptyText={st("empty")}
          toolbar={
            can(permissions, "coupons", "export") && (
              <a className="button button--small button--ghost" href={exportUrl} download>
                {st("export")}
              </a>
            )
          }
        />
      </Section>
    </div>
  );
}
