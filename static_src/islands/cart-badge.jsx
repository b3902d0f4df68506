// The header's cart count. It mounts at the first cart change announced on the page and is rendered
// again with each one (data-island-on-event, lib/mount.jsx); until then the server's count stands.
import { t } from "../lib/i18n.js";

export default function CartBadge({ itemCount = 0 }) {
  return (
    <>
      {/* the link's name is the sentence ("2 items in cart"); the bare number is for the eye */}
      <span className="badge" data-count={itemCount} aria-hidden="true">
        {itemCount}
      </span>
      <span className="visually-hidden">{t("cartItems", { count: itemCount })}</span>
    </>
  );
}
