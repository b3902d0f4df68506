"""Staff record cash given back for a paid cash-on-delivery order from its detail dialog: an amount, a
confirmation naming it, and the server's own message when it refuses."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from orders.actions import order_set_status
from orders.models import Order
from tests.browser.staff_pages import signed_in
from tests.factories import make_order, make_product

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = {
    "en": {"open": "Record cash refund", "amount": "Amount given back in cash (EGP)", "go": "Continue",
           "record": "Record the refund", "too_much": "of this order is left to refund",
           "confirm": "Record E£40.00 given back in cash for order", "done": "cash refund recorded"},
    "ar": {"open": "تسجيل استرداد نقدي", "amount": "المبلغ المُعاد نقدًا (جنيه)", "go": "متابعة",
           "record": "تسجيل الاسترداد", "too_much": "المتبقي للاسترداد من هذا الطلب",
           "confirm": "تسجيل إعادة 40.00", "done": "سُجِّل استرداد نقدي"},
}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_manager_records_part_of_a_cash_on_delivery_order_as_refunded_in_cash(
        new_page, live_server, manager, language, screenshot):
    # given a delivered cash-on-delivery order
    order = make_order(lines=[(make_product(title="Kenya Gold", stock=40), 1)], payment_status="cod",
                       status="delivered")
    text = TEXT[language]
    page = signed_in(new_page, live_server, manager)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{'/ar' if language == 'ar' else ''}/admindash/orders")
    page.get_by_role("button", name=order.number).click()
    # when the Manager asks for more than was paid, the server's message is shown and nothing is recorded
    page.get_by_role("button", name=text["open"]).click()
    amount = page.get_by_label(text["amount"])
    expect(amount).to_have_attribute("inputmode", "decimal")
    expect(amount).to_have_attribute("dir", "ltr")
    amount.fill(str(order.total_amount + 100))
    page.get_by_role("button", name=text["go"]).click()
    page.locator("[data-cash-refund-confirm]").get_by_role("button", name=text["record"]).click()
    expect(page.locator("[data-cash-refund-form] .field__error")).to_contain_text(text["too_much"])
    assert Order.objects.get(pk=order.pk).refunded_amount == 0
    # when they record E£40 instead, confirming the amount
    amount.fill("40")
    page.get_by_role("button", name=text["go"]).click()
    confirm = page.locator("[data-cash-refund-confirm]")
    expect(confirm).to_contain_text(text["confirm"])
    expect(confirm).to_contain_text(order.number)
    screenshot(page, f"backoffice-cash-refund-confirm-{language}")
    page.set_viewport_size({"width": 360, "height": 780})
    screenshot(page, f"backoffice-cash-refund-confirm-{language}-phone")
    confirm.get_by_role("button", name=text["record"]).click()
    # then it is recorded, and the dialog shows what was refunded, the order still paid for the rest
    expect(page.locator("#toasts")).to_contain_text(text["done"])
    expect(page.locator("[data-refunded]")).to_contain_text("40.00")
    assert Order.objects.get(pk=order.pk).refunded_amount == Decimal("40.00")
    expect(page.get_by_role("button", name=text["open"])).to_be_visible()
    screenshot(page, f"backoffice-cash-refund-done-{language}-phone")


CASH_DUE = {"en": "Cancelled after its cash was collected on delivery: give the cash back",
            "ar": "أُلغي الطلب بعد تحصيل ثمنه نقدًا عند التوصيل"}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_returned_order_asks_for_its_cash_back_and_one_on_its_way_offers_no_cash_refund(
        new_page, live_server, manager, language):
    # given a cash-on-delivery order cancelled after it was delivered (the tea came back), and one on its way
    tea = make_product(title="Kenya Gold", stock=40)
    returned = make_order(lines=[(tea, 1)], payment_status="cod", status="delivered")
    order_set_status(order=returned, status="cancelled")
    on_its_way = make_order(lines=[(tea, 1)], payment_status="cod", status="shipped")
    text = TEXT[language]
    page = signed_in(new_page, live_server, manager)
    page.goto(f"{'/ar' if language == 'ar' else ''}/admindash/orders")
    # when the Manager opens the returned order
    page.get_by_role("button", name=returned.number).click()
    # then its alert says to give the cash back (not to refund it in Paymob), and they can record it
    alert = page.locator("[data-attention='refund_due']")
    expect(alert).to_contain_text(CASH_DUE[language])
    expect(alert).not_to_contain_text("Paymob")
    page.get_by_role("button", name=text["open"]).click()
    page.get_by_label(text["amount"]).fill(str(returned.total_amount))
    page.get_by_role("button", name=text["go"]).click()
    page.locator("[data-cash-refund-confirm]").get_by_role("button", name=text["record"]).click()
    expect(page.locator("#toasts")).to_contain_text(text["done"])
    # then all of it is given back: the alert is settled and no more cash refund is offered
    expect(page.locator("[data-attention='refund_due']")).to_have_count(0)
    expect(page.locator("[data-cash-refund]")).to_have_count(0)
    assert Order.objects.get(pk=returned.pk).attention_reasons == []
    # when they open the order on its way, no cash refund is offered: the courier has collected nothing
    page.goto(f"{'/ar' if language == 'ar' else ''}/admindash/orders")
    page.get_by_role("button", name=on_its_way.number).click()
    expect(page.get_by_role("dialog")).to_contain_text(on_its_way.number)
    expect(page.locator("dd.admin-b-totals__total")).to_be_visible()
    expect(page.get_by_role("button", name=text["open"])).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_focus_follows_each_step_of_a_cash_refund(new_page, live_server, manager, language):
    """Each step replaces the button just pressed: the focus goes on to the next step's control, not back to the
    page's start (a keyboard user was left outside the dialog, a screen reader silent)."""
    # given a delivered cash-on-delivery order open in its dialog on a phone
    order = make_order(lines=[(make_product(title="Kenya Gold", stock=40), 1)], payment_status="cod",
                       status="delivered")
    text = TEXT[language]
    page = signed_in(new_page, live_server, manager, viewport={"width": 360, "height": 640})
    page.goto(f"{'/ar' if language == 'ar' else ''}/admindash/orders")
    page.get_by_role("button", name=order.number).click()
    # when "Record cash refund" is pressed, then the amount is focused to be typed
    page.get_by_role("button", name=text["open"]).click()
    amount = page.get_by_label(text["amount"])
    expect(amount).to_be_focused()
    # when Continue is pressed, then the focus is in the confirmation, on its way back (not on recording)
    amount.fill("40")
    page.get_by_role("button", name=text["go"]).click()
    confirm = page.locator("[data-cash-refund-confirm]")
    expect(confirm.get_by_role("button").first).to_be_focused()
    expect(confirm.get_by_role("button", name=text["record"])).not_to_be_focused()
    # when the confirmation is cancelled, then the amount is focused again
    page.keyboard.press("Enter")
    expect(amount).to_be_focused()
    # when the form is cancelled, then the focus is back on "Record cash refund"
    page.locator("[data-cash-refund-form]").get_by_role("button").first.click()
    expect(page.get_by_role("button", name=text["open"])).to_be_focused()
