// Products: a server-paged table (search, category and Arabic filters, column sort go to the API;
// stock below 10 in red), add/edit dialog with image upload, CSV Export/Import, Auto Categorize of
// every product in batches of 5, per-row AI description/categorize, delete (one, the selected ones
// across pages) and Delete All for the Owner.
import { useEffect, useRef, useState } from "react";
import {
  Badge, ConfirmDialog, DataTable, RowMenu, Dialog, DialogFooter, Field, Toggle, api, at, can, userMessage, sectionStrings, sleep, toast,
  upload, useServerList, useSubmit,
} from "./components/index.js";
import { formatEgp, formatKes } from "../../lib/money.js";
import { westernDigits } from "../../lib/digits.js";
import { formatDate } from "../../lib/store-day.js";
import { currentLanguage } from "../../lib/i18n.js";
import { safeUrl } from "../../lib/safe-url.js";
import en from "../../i18n/en/admin-products.json";
import ar from "../../i18n/ar/admin-products.json";

const st = sectionStrings("admin-products", en, ar);
const BATCH = 5;
const CAFFEINE = ["none", "low", "medium", "high"];
const PLACEHOLDER =
  "data:image/svg+xml;utf8," +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#e5efe8"/><path d="M12 28c0-10 7-16 17-16 0 10-6 17-17 16z" fill="#2f6f52"/></svg>');

const EMPTY = {
  title: "", titleAr: "", slug: "", category: "black-tea", price: "", salePrice: "", stock: "0",
  caffeineLevel: "medium", shortDescription: "", shortDescriptionAr: "", description: "", descriptionAr: "",
  brewingInstructions: "", brewingInstructionsAr: "", tags: "", flavorNotes: "", ingredients: "", images: "",
  tagsAr: "", flavorNotesAr: "", ingredientsAr: "",
  isActive: true, isFeatured: false, isNew: false,
};

// Spec 5: decimals with step 0.01, invalid becomes 0; stock integer, invalid becomes 0; lists comma-separated.
// A price is read as staff in Egypt write one: "E£1,250.00", "1250", "١٢٥٠٫٥٠". Commas (and the Arabic
// thousands sign) group thousands, the Arabic decimal sign is a point, a currency name around it is
// dropped (the server refuses a price of 0, so text that is no number is never saved as a free tea).
const toDecimal = (v) => {
  const text = westernDigits(v).replace(/\u066b/g, ".").replace(/[,\u066c\s]/g, "");
  const number = text.match(/^[^\d-]*?(\d+(?:\.\d*)?|\.\d+)[^\d]*$/);
  return number ? Number(number[1]).toFixed(2) : "0.00";
};
const toInt = (v) => {
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};
// lists are separated by commas, the Arabic comma "،" included
const toList = (v) => String(v).split(/[,،]/).map((s) => s.trim()).filter(Boolean);

function toForm(p) {
  return {
    ...EMPTY,
    ...Object.fromEntries(Object.keys(EMPTY).map((k) => [k, p[k] ?? EMPTY[k]])),
    price: p.price ?? "",
    salePrice: p.salePrice ?? "",
    stock: String(p.stock ?? 0),
    tags: (p.tags || []).join(", "),
    flavorNotes: (p.flavorNotes || []).join(", "),
    ingredients: (p.ingredients || []).join(", "),
    tagsAr: (p.tagsAr || []).join("، "),
    flavorNotesAr: (p.flavorNotesAr || []).join("، "),
    ingredientsAr: (p.ingredientsAr || []).join("، "),
    images: (p.images || []).join(", "),
  };
}

// `saved`: the product as the dialog opened it. Its stock is sent only when staff changed it: orders
// take and give back stock while the dialog is open, and the figure it shows is stale by then.
function toPayload(f, saved) {
  const { stock, ...payload } = toPayloadAll(f);
  return saved && stock === saved.stock ? payload : { ...payload, stock };
}

function toPayloadAll(f) {
  return {
    title: f.title.trim(), titleAr: f.titleAr.trim(), slug: f.slug.trim(), category: f.category,
    price: toDecimal(f.price), salePrice: String(f.salePrice).trim() === "" ? null : toDecimal(f.salePrice),
    stock: toInt(f.stock), caffeineLevel: f.caffeineLevel, shortDescription: f.shortDescription,
    shortDescriptionAr: f.shortDescriptionAr, description: f.description, descriptionAr: f.descriptionAr,
    brewingInstructions: f.brewingInstructions, brewingInstructionsAr: f.brewingInstructionsAr,
    tags: toList(f.tags), flavorNotes: toList(f.flavorNotes), ingredients: toList(f.ingredients),
    tagsAr: toList(f.tagsAr), flavorNotesAr: toList(f.flavorNotesAr), ingredientsAr: toList(f.ingredientsAr),
    images: toList(f.images), isActive: f.isActive, isFeatured: f.isFeatured, isNew: f.isNew,
  };
}

// An imported product's prices over time (importer.PriceRecord): KES, rate, markup, EGP, when.
function PriceHistory({ productId, language }) {
  const [rows, setRows] = useState(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api(`/api/admin/scrape/products/${productId}/prices`)
      .then((body) => live && setRows(body.history))
      .catch(() => live && setFailed(true));
    return () => { live = false; };
  }, [productId]);
  const when = (iso) => formatDate(iso, language, { dateStyle: "short", timeStyle: "short" });
  return (
    <section className="field field--wide importer-history" aria-labelledby="price-history-title" data-testid="price-history">
      <h3 id="price-history-title">{st("priceHistory")}</h3>
      {failed && <p className="admin-muted">{st("priceHistoryFailed")}</p>}
      {rows && rows.length === 0 && <p className="admin-muted">{st("priceHistoryEmpty")}</p>}
      {rows && rows.length > 0 && (
        <div className="admin-table"><div className="admin-table__scroll">
          <table>
            <thead><tr>
              <th scope="col">{st("historyWhen")}</th><th scope="col">{st("historyKes")}</th>
              <th scope="col">{st("historyRate")}</th><th scope="col">{st("historyMarkup")}</th>
              <th scope="col">{st("historyEgp")}</th>
            </tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.recordedAt + r.egp}>
                  <td>{when(r.recordedAt)} <span className="admin-muted">{st(`historyReason_${r.reason}`)}</span></td>
                  <td><bdi>{formatKes(r.kes, language)}</bdi></td>
                  <td><bdi dir="ltr">{r.rate}</bdi></td>
                  <td><bdi dir="ltr">{r.markup}%</bdi></td>
                  <td>
                    <bdi>{formatEgp(r.saleEgp ?? r.egp, language)}</bdi>
                    {r.saleEgp != null && <s className="admin-muted"> <bdi>{formatEgp(r.egp, language)}</bdi></s>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div></div>
      )}
    </section>
  );
}

function ProductDialog({ product, categories, onClose, onSaved }) {
  const [form, setForm] = useState(() => (product ? toForm(product) : { ...EMPTY }));
  const [errors, setErrors] = useState({});
  const [busy, submit] = useSubmit((field, message) => setErrors({ [field]: message }));
  const set = (key) => (e) => {
    const value = e && e.target ? (e.target.type === "checkbox" ? e.target.checked : e.target.value) : e;
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((er) => ({ ...er, [key]: undefined }));
  };

  const save = async (e) => {
    e.preventDefault();
    if (!form.title.trim()) {
      setErrors({ title: st("titleRequired") });
      return;
    }
    await submit(
      () =>
        product
          ? api(`/api/admin/products/${product.id}`, { method: "PUT", body: toPayload(form, product) })
          : api("/api/admin/products", { method: "POST", body: toPayload(form) }),
      {
        done: (saved) => {
          toast(product ? st("updated") : st("created"), "success");
          onSaved(saved);
        },
        failText: () => st("saveFailed"),
      },
    );
  };

  const autoCategorize = async () => {
    if (!form.title.trim()) {
      toast(st("titleFirst"), "error");
      setErrors({ title: st("titleFirst") });
      return;
    }
    try {
      const s = await api("/api/admin/products/suggest-category", {
        method: "POST",
        body: { title: form.title, description: form.description, price: toDecimal(form.price) },
      });
      const tags = [...new Set([...toList(form.tags), ...s.tags])];
      setForm((f) => ({ ...f, category: s.category, tags: tags.join(", ") }));
      toast(st("suggested", { category: categories.find((c) => c.slug === s.category)?.name || s.category }), "success");
    } catch {
      toast(st("categorizeFailed"), "error");
    }
  };

  const fileInput = useRef(null);
  const uploadImage = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const data = new FormData();
    data.append("image", file);
    try {
      const { url } = await upload("/api/admin/products/images", data);
      setForm((f) => ({ ...f, images: [...toList(f.images), url].join(", ") }));
    } catch (err) {
      setErrors((er) => ({ ...er, images: userMessage(err, st("uploadFailed")) }));
      toast(userMessage(err, st("uploadFailed")), "error");
    } finally {
      e.target.value = "";
    }
  };

  const input = (key, props = {}) => (id) => <input id={id} className="input" value={form[key]} onChange={set(key)} {...props} />;
  const area = (key, props = {}) => (id) => <textarea id={id} className="input" rows={3} value={form[key]} onChange={set(key)} {...props} />;
  // English and Arabic side by side; the Arabic half says so when English has text and Arabic has none
  const LABELS = { brewingInstructions: "brewing", brewingInstructionsAr: "brewingAr" };
  const label = (key) => st(LABELS[key] || key);
  const pair = (key, keyAr, kind, props = {}, hint = undefined) => {
    const missing = String(form[key]).trim() !== "" && String(form[keyAr]).trim() === "";
    return (
      <div className="field--wide admin-lang-pair" data-lang-pair={key}>
        <Field label={label(key)} hint={hint} error={errors[key]}>{kind(key, { ...props, dir: "ltr", lang: "en" })}</Field>
        <Field label={label(keyAr)} hint={missing ? st("missingArabic") : hint} error={errors[keyAr]}
               className={missing ? "field--missing" : ""}>
          {kind(keyAr, { dir: "rtl", lang: "ar", "data-missing-arabic": missing ? "" : undefined })}
        </Field>
      </div>
    );
  };

  return (
    <Dialog
      open
      wide
      title={product ? st("editProduct") : st("addProduct")}
      onClose={onClose}
      footer={<DialogFooter formId="product-form" onCancel={onClose} busy={busy} />}
    >
      <form id="product-form" onSubmit={save} noValidate className="admin-form-grid">
        {pair("title", "titleAr", input, { required: true, name: "title" })}
        <Field label={st("category")} error={errors.category}>
          {(id) => (
            <div className="admin-inline">
              <select id={id} className="input" value={form.category} onChange={set("category")} name="category">
                {categories.map((c) => <option key={c.slug} value={c.slug}>{c.name}</option>)}
              </select>
              <button type="button" className="button button--small button--ghost" onClick={autoCategorize}>{st("autoCategorize")}</button>
            </div>
          )}
        </Field>
        <Field label={st("slug")} error={errors.slug} hint={st("slugHint")}>{input("slug")}</Field>
        <Field label={st("price")} error={errors.price}>{input("price", { type: "text", inputMode: "decimal", dir: "ltr", name: "price" })}</Field>
        <Field label={st("salePrice")} error={errors.salePrice}>{input("salePrice", { type: "text", inputMode: "decimal", dir: "ltr" })}</Field>
        <Field label={st("stock")} error={errors.stock}>{input("stock", { type: "text", inputMode: "numeric", dir: "ltr", name: "stock" })}</Field>
        <Field label={st("caffeine")} error={errors.caffeineLevel}>
          {(id) => (
            <select id={id} className="input" value={form.caffeineLevel} onChange={set("caffeineLevel")}>
              {CAFFEINE.map((c) => <option key={c} value={c}>{st(`caffeine_${c}`)}</option>)}
            </select>
          )}
        </Field>
        {pair("shortDescription", "shortDescriptionAr", input)}
        {pair("description", "descriptionAr", area)}
        {pair("brewingInstructions", "brewingInstructionsAr", area)}
        {pair("tags", "tagsAr", input, {}, st("commaHint"))}
        {pair("flavorNotes", "flavorNotesAr", input, {}, st("commaHint"))}
        {pair("ingredients", "ingredientsAr", input, {}, st("commaHint"))}
        <Field label={st("images")} hint={st("imagesHint")} error={errors.images}>
          {(id) => (
            <div className="admin-inline">
              <input id={id} className="input" value={form.images} onChange={set("images")} />
              <button type="button" className="button button--small button--ghost" onClick={() => fileInput.current.click()}>{st("upload")}</button>
              <input ref={fileInput} type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden onChange={uploadImage} data-image-upload />
            </div>
          )}
        </Field>
        <div className="field field--wide admin-inline">
          <Toggle label={st("active")} checked={form.isActive} onChange={set("isActive")} />
          <Toggle label={st("featured")} checked={form.isFeatured} onChange={set("isFeatured")} />
          <Toggle label={st("new")} checked={form.isNew} onChange={set("isNew")} />
        </div>
      </form>
      {product?.sourceUrl && <PriceHistory productId={product.id} language={currentLanguage()} />}
    </Dialog>
  );
}

export default function Products({ permissions, categories = [], language }) {
  const name = (p) => (language === "ar" && p.titleAr ? p.titleAr : p.title);
  const table = useServerList("/api/admin/products", { category: "", arabic: "" });
  const counts = table.data.counts || { all: 0, arabicTitle: 0, arabicAny: 0, arabicImported: 0 };
  const [selected, setSelected] = useState(() => new Set());
  const [editing, setEditing] = useState(null); // null | "new" | product
  const [confirm, setConfirm] = useState(null); // {kind, product}
  const [busy, setBusy] = useState("");
  const [progress, setProgress] = useState("");
  const importInput = useRef(null);
  const canEdit = can(permissions, "products", "edit");
  const canCreate = can(permissions, "products", "create");
  const canDelete = can(permissions, "products", "delete");
  const canDeleteAll = can(permissions, "delete_all_products", "delete");
  const replace = table.updateRow;
  // the selection spans pages: a deleted product leaves it
  const unselect = (id) => setSelected((prev) => {
    const next = new Set(prev);
    next.delete(id);
    return next;
  });

  const rowAction = async (product, kind) => {
    setBusy(`${kind}-${product.id}`);
    try {
      replace(await api(`/api/admin/products/${product.id}/${kind}`, { method: "POST", body: {} }));
      toast(kind === "describe" ? st("described") : st("categorized"), "success");
    } catch {
      toast(kind === "describe" ? st("describeFailed") : st("categoryFailed"), "error");
    } finally {
      setBusy("");
    }
  };

  // every product, not only the page shown: the server names them all, then batches of 5, 500 ms apart
  const autoCategorizeAll = async () => {
    setBusy("auto");
    let done = 0;
    try {
      const { ids } = await api("/api/admin/products/ids");
      if (!ids.length) {
        toast(st("noProducts"), "error");
        return;
      }
      for (let i = 0; i < ids.length; i += BATCH) {
        const batch = ids.slice(i, i + BATCH);
        const updated = await api("/api/admin/products/categorize", { method: "POST", body: { ids: batch } });
        updated.forEach(replace);
        done += updated.length;
        setProgress(st("progress", { done, total: ids.length }));
        if (i + BATCH < ids.length) await sleep(500);
      }
      toast(st("categorizedAll", { count: done }), "success");
    } catch {
      toast(st("categorizeFailed"), "error");
    } finally {
      setBusy("");
      setProgress("");
    }
  };

  const doDelete = async () => {
    const { kind, product, ids, clear } = confirm;
    setBusy("delete");
    try {
      if (kind === "selected") {
        // one audited DELETE per product; the ones done stay done if a later one fails
        for (const id of ids) {
          await api(`/api/admin/products/${id}`, { method: "DELETE" });
          unselect(id);
        }
        clear();
        toast(st("deletedSelected", { count: ids.length }), "success");
      } else if (kind === "all") {
        await api("/api/admin/products", { method: "DELETE" });
        setSelected(new Set());
        toast(st("deletedAll"), "success");
      } else {
        await api(`/api/admin/products/${product.id}`, { method: "DELETE" });
        unselect(product.id);
        toast(st("deleted"), "success");
      }
    } catch (err) {
      toast(userMessage(err, kind === "all" ? st("deleteAllFailed") : st("deleteFailed")), "error");
    } finally {
      setBusy("");
      setConfirm(null);
      table.reload(); // the page closes up; the ones done stay gone if a later one failed
    }
  };

  const importCsv = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const form = new FormData();
    form.append("file", file);
    setBusy("import");
    try {
      const report = await upload("/api/admin/products/import", form);
      toast(st("imported", report), report.errors.length ? "error" : "success");
      if (report.errors.length) console.warn("CSV import errors", report.errors);
      table.reload();
    } catch (err) {
      toast(userMessage(err, st("importFailed")), "error");
    } finally {
      setBusy("");
      e.target.value = "";
    }
  };

  const columns = [
    {
      key: "image", label: st("image"),
      render: (p) => <img className="admin-thumb" src={safeUrl(p.images[0]) || PLACEHOLDER} alt="" loading="lazy" onError={(e) => { e.currentTarget.src = PLACEHOLDER; }} />,
    },
    {
      key: "title", label: st("title"), sortable: true,
      render: (p) => (
        <span>
          <strong><bdi>{name(p)}</bdi></strong>{language === "ar" && p.arabicMissing?.length > 0 && <> <Badge kind="warning">{st("arabicMissingCount")}</Badge></>}
          <br />
          <code className="admin-muted" dir="ltr">{p.slug}</code>
        </span>
      ),
    },
    { key: "category", label: st("category"), sortable: true, render: (p) => <bdi>{p.categoryName}</bdi> },
    {
      key: "price", label: st("price"), sortable: true,
      render: (p) => (
        <span>
          {formatEgp(p.salePrice ?? p.price, language)}
          {p.salePrice != null && <s className="admin-muted"> {formatEgp(p.price, language)}</s>}
        </span>
      ),
    },
    {
      key: "stock", label: st("stock"), sortable: true,
      render: (p) => <span className={p.stockWarning ? "admin-stock-low" : ""} data-stock-warning={p.stockWarning}>{p.stock}</span>,
    },
    {
      key: "isActive", label: st("status"),
      render: (p) => <Badge kind={p.isActive ? "success" : "neutral"}>{p.isActive ? at("active") : at("inactive")}</Badge>,
    },
    {
      key: "actions", label: at("actions"), className: "admin-cell-wide",
      render: (p) => (
        <div className="admin-row-actions">
          {canEdit && <button type="button" className="button button--small button--ghost" onClick={() => setEditing(p)}>{at("edit")}</button>}
          {(canEdit || canDelete) && (
            <RowMenu label={st("moreActions", { title: name(p) })}>
              {(close) => (
                <>
                  {canEdit && (
                    <button type="button" role="menuitem" disabled={!!busy} onClick={() => { close(); rowAction(p, "describe"); }}>
                      {st("aiDescription")}
                    </button>
                  )}
                  {canEdit && (
                    <button type="button" role="menuitem" disabled={!!busy} onClick={() => { close(); rowAction(p, "categorize"); }}>
                      {st("aiCategorize")}
                    </button>
                  )}
                  {canDelete && (
                    <button type="button" role="menuitem" className="admin-row-menu__danger" onClick={() => { close(); setConfirm({ kind: "one", product: p }); }}>
                      {at("delete")}
                    </button>
                  )}
                </>
              )}
            </RowMenu>
          )}
        </div>
      ),
    },
  ];

  // the export holds what the list shows: its search, filters and sort
  const exportParams = new URLSearchParams();
  for (const [key, value] of Object.entries(table.filters)) if (value) exportParams.set(key, value);
  if (table.search.trim()) exportParams.set("search", table.search.trim());
  if (table.sort) exportParams.set("sort", `${table.sort.dir === -1 ? "-" : ""}${table.sort.key}`);
  const exportUrl = `/api/admin/products/export${exportParams.size ? `?${exportParams}` : ""}`;

  const toolbar = (
    <>
      {canCreate && <button type="button" className="button button--small" onClick={() => setEditing("new")}>{st("addProduct")}</button>}
      <a className="button button--small button--ghost" href={exportUrl} download="products.csv">{st("export")}</a>
      {canCreate && (
        <>
          <button type="button" className="button button--small button--ghost" disabled={!!busy} onClick={() => importInput.current.click()}>{st("import")}</button>
          <input ref={importInput} type="file" accept=".csv,text/csv" hidden onChange={importCsv} data-csv-import />
        </>
      )}
      {canEdit && (
        <button type="button" className="button button--small button--ghost" disabled={!!busy} onClick={autoCategorizeAll}>
          {busy === "auto" ? progress || st("categorizing") : st("autoCategorize")}
        </button>
      )}
      {canDeleteAll && (
        <button type="button" className="button button--small button--danger" onClick={() => setConfirm({ kind: "all" })}>{st("deleteAll")}</button>
      )}
    </>
  );

  return (
    <div className="admin-panel">
      <DataTable
        table={table}
        label={st("products")}
        columns={columns}
        searchPlaceholder={st("search")}
        filters={[
          { key: "category", label: st("allCategories"), options: categories.map((c) => ({ value: c.slug, label: c.name })) },
          // what staff still have to write in Arabic (imported products arrive with English titles);
          // the counts are over every product
          { key: "arabic", label: st("arabicAll"), options: [
            { value: "title", label: st("arabicTitleMissing", { count: counts.arabicTitle }) },
            { value: "any", label: st("arabicAnyMissing", { count: counts.arabicAny }) },
            { value: "imported", label: st("arabicImportedMissing", { count: counts.arabicImported }) },
          ] },
        ]}
        toolbar={toolbar}
        selectable={canDelete}
        selected={selected}
        onSelectedChange={setSelected}
        bulkBar={selected.size > 0 && (
          <button type="button" className="button button--small button--danger"
            onClick={() => setConfirm({ kind: "selected", ids: [...selected], clear: () => setSelected(new Set()) })}>
            {st("deleteSelected", { count: selected.size })}
          </button>
        )}
        emptyText={st("empty")}
      />
      {editing && (
        <ProductDialog
          product={editing === "new" ? null : editing}
          categories={categories}
          onClose={() => setEditing(null)}
          onSaved={(p) => {
            if (editing === "new") table.reload();
            else replace(p);
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog
        open={!!confirm}
        busy={busy === "delete"}
        message={{
          all: () => st("confirmDeleteAll", { count: counts.all }),
          selected: () => st("confirmDeleteSelected", { count: confirm.ids.length }),
          one: () => st("confirmDelete", { title: name(confirm.product) }),
        }[confirm?.kind]?.() || ""}
        confirmLabel={{ all: st("deleteAll"), selected: st("deleteSelected", { count: confirm?.ids?.length || 0 }) }[confirm?.kind] || at("delete")}
        onConfirm={doDelete}
        onCancel={() => setConfirm(null)}
      />
    </div>
  );
}
