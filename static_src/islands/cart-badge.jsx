// The header's cart count; follows every cart change announced on the page.
import { useEffect, useState } from "react";
import { CART_UPDATED } from "../lib/events.js";
import { t } from "../lib/i18n.js";

export default function CartBadge({ count = 0 }) {
  const [itemCount, setItemCount] = useState(count);
  useEffect(() => {
    const onUpdate = (event) => setItemCount(event.detail?.itemCount ?? 0);
    window.addEventListener(CART_UPDATED, onUpdate);
    return () => window.removeEventListener(CART_UPDATED, onUpdate);
  }, []);
  return (
    <span className="badge" data-count={itemCount} aria-label={t("cartItems", { count: itemCount })}>
      {itemCount}
    </span>
  );
}
