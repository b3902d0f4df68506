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
    <>
      {/* the link's name is the sentence ("2 items in cart"); the bare number is for the eye */}
      <span className="badge" data-count={itemCount} aria-hidden="true">
        {itemCount}
      </span>
      <span className="visually-hidden">{t("cartItems", { count: itemCount })}</span>
    </>
  );
}
