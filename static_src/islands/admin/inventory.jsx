// Inventory: summary cards, low-stock list, search, and minus / plus / set per product.
import { useMemo, useState } from "react";
import { Badge, DataTable, Dialog, DialogFooter, Section, StatCard, api, at, can, sectionStrings, toast, useAdminData, userMessage } from "./components/index.js";
import { currentLanguage } from "../../lib/i18n.js";
import en from "../../i18n/en/admin-inventory.json";
import ar from "../../i18n/ar/admin-inventory.json";

// a product by its name in the reader's language (Arabic falls back to English)
const nameOf = (p) => (currentLanguage() === "ar" && p.titleAr ? p.titleAr : p.title);
const st = sectionStrings("admin-inventory", en, ar);
const STATUS_KIND = { in: "success", low: "warning", out: "danger" };

function SetStockDialog({ product, onClose, onSet }) {
  const [value, setValue] = useState(String(product.stock));
  const [error, setError] = useState("");
  const submit = (e) => {
    e.preventDefault();
    // Spec 5: the set-stock prompt accepts only numeric input.
    if (!/^\d+$/.test(value.trim())) {
      setError(st("numbersOnly"));
      return;
    }
    onSet(Number.parseInt(value.trim(), 10));
  };
  return (
    <Dialog
      open
      title={st("setStockFor", { title: nameOf(product) })}
      onClose={onClose}
      footer={<DialogFooter formId="set-stock-form" onCancel={onClose} />}
    >
      <form id="set-stock-form" onSubmit={submit} noValidate>
        <div className={`field${error ? " field--error" : ""}`}>
          <label htmlFor="set-stock-value">{st("newStock")}</label>
          <input id="set-stock-value" className="input" inputMode="numeric" pattern="[0-9]*" dir="ltr" value={value}
            onChange={(e) => { setValue(e.target.value.replace(/[^\d]/g, "")); setError(""); }} />
          {error && <p className="field__error" role="alert">{error}</p>}
        </div>
      </form>
    </Dialog>
  );
}

export default function Inventory({ permissions, categories = [], language }) {
  // a refresh (Refresh Now, auto-refresh) re-sorts: it drops the pinned order
  const { data, setData, loading } = useAdminData("/api/admin/inventory", { onLoad: () => setPlaced(null) });
  const [setting, setSetting] = useState(null);
  const [busyId, setBusyId] = useState(null);
  const canEdit = can(permissions, "products", "edit");

  // Rows keep their place (and their sort and filter values) from the last refresh, so the
  // pointer stays on the product just changed and a quick second click hits it again.
  const [placed, setPlaced] = useState(null); // {ids: [...], at: Map(id -> {stock, stockStatus})}
  const shown = useMemo(() => {
    if (!data) return [];
    if (!placed) return data.products;
    const byId = new Map(data.products.map((p) => [p.id, p]));
    const kept = placed.ids.filter((id) => byId.has(id)).map((id) => byId.get(id));
    return [...kept, ...data.products.filter((p) => !placed.at.has(p.id))];
  }, [data, placed]);
  const atRefresh = (p) => placed?.at.get(p.id) || p;
  const place = (products) => setPlaced({ ids: products.map((p) => p.id), at: new Map(products.map((p) => [p.id, p])) });

  const change = async (product, action, stock) => {
    setBusyId(product.id);
    let updated;
    try {
      updated = await api(`/api/admin/inventory/${product.id}`, { method: "PUT", body: { action, stock } });
    } catch (err) {
      // the server's reason ("Stock can be at most 1000000"), in the staff member's language
      toast(userMessage(err, st("updateFailed")), "error");
      setBusyId(null);
      return;
    }
    if (!placed) place(shown);
    setData((d) => ({ ...d, products: d.products.map((p) => (p.id === updated.id ? updated : p)) }));
    toast(st("stockUpdated", { title: nameOf(updated), stock: updated.stock }), "success");
    try {
      // the summary cards and low-stock list come from the server; the rows stay put. A failed refresh
      // is not a failed update: the row already shows the new count
      setData(await api("/api/admin/inventory"));
    } catch (err) {
      console.error(err);
    } finally {
      setBusyId(null);
    }
  };

  if (!data) return <p className="admin-loading">{loading ? at("loading") : st("loadFailed")}</p>;
  const s = data.summary;
  const name = (p) => (language === "ar" && p.titleAr ? p.titleAr : p.title);

  const columns = [
    { key: "title", label: st("product"), sortable: true, render: (p) => <strong>{name(p)}</strong> },
    { key: "categoryName", label: st("category"), sortable: true },
    { key: "stock", label: st("stock"), sortable: true, value: (p) => atRefresh(p).stock, render: (p) => <span className={p.stockWarning ? "admin-stock-low" : ""} data-stock>{p.stock}</span> },
    { key: "stockStatus", label: st("status"), render: (p) => <Badge kind={STATUS_KIND[p.stockStatus]}>{st(`status_${p.stockStatus}`)}</Badge> },
    { key: "waitingAlerts", label: st("waiting"), sortable: true, render: (p) => (p.waitingAlerts ? <span title={st("waitingHint")} data-waiting>{st("waitingCount", { count: p.waitingAlerts })}</span> : "—") },
    {
      key: "actions", label: at("actions"), className: "admin-cell-wide",
      render: (p) => canEdit ? (
        <div className="admin-row-actions">
          <button type="button" className="button button--small button--ghost" aria-label={st("minusOne", { title: name(p) })}
            disabled={busyId === p.id || p.stock <= 0} onClick={() => change(p, "subtract", 1)} data-stock-minus>−</button>
          <button type="button" className="button button--small button--ghost" aria-label={st("plusOne", { title: name(p) })}
            disabled={busyId === p.id} onClick={() => change(p, "add", 1)} data-stock-plus>+</button>
          <button type="button" className="button button--small button--ghost" disabled={busyId === p.id} onClick={() => setSetting(p)}>{st("set")}</button>
        </div>
      ) : <span className="admin-muted">{st("viewOnly")}</span>,
    },
  ];

  return (
    <div className="admin-content__stack">
      <div className="admin-stats">
        <StatCard label={st("totalProducts")} value={s.totalProducts} />
        <StatCard label={st("totalUnits")} value={s.totalUnits} />
        <StatCard label={st("inStock")} value={s.inStock} />
        <StatCard label={st("lowStock")} value={s.lowStock} tone={s.lowStock ? "warning" : "neutral"} />
        <StatCard label={st("outOfStock")} value={s.outOfStock} tone={s.outOfStock ? "danger" : "neutral"} />
      </div>
      {data.lowStock.length > 0 && (
        <Section title={st("lowStockList")}>
          <ul className="admin-list" data-low-stock-list>
            {data.lowStock.map((p) => (
              <li key={p.id}><span>{name(p)}</span><Badge kind={STATUS_KIND[p.stockStatus]}>{p.stock}</Badge></li>
            ))}
          </ul>
        </Section>
      )}
      <Section>
        <DataTable
          label={st("inventory")}
          rows={shown}
          loading={loading}
          columns={columns}
          searchText={(p) => `${p.title} ${p.titleAr || ""} ${p.slug}`}
          searchPlaceholder={st("search")}
          filters={[
            { key: "status", label: st("allStatuses"), options: ["in", "low", "out"].map((v) => ({ value: v, label: st(`status_${v}`) })), match: (p, v) => atRefresh(p).stockStatus === v },
            { key: "category", label: st("allCategories"), options: categories.map((c) => ({ value: c.slug, label: c.name })), match: (p, v) => p.category === v },
          ]}
        />
      </Section>
      {setting && (
        <SetStockDialog product={setting} onClose={() => setSetting(null)} onSet={(n) => { change(setting, "set", n); setSetting(null); }} />
      )}
    </div>
  );
}
