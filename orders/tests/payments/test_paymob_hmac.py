import hashlib
import hmac

from orders.payments.paymob import hmac_message, hmac_sign, hmac_verify

# Paymob's documented sample callback (reference note §3/§4)
SAMPLE = {
    "id": 192036465, "pending": False, "amount_cents": 100000, "success": True, "is_auth": False,
    "is_capture": False, "is_standalone_payment": True, "is_voided": False, "is_refunded": False,
    "is_3d_secure": True, "integration_id": 4097558, "profile_id": 164295, "has_parent_transaction": False,
    "order": {"id": 217503754, "merchant_order_id": "ORD-1001-1718280000", "amount_cents": 100000,
              "currency": "EGP"},
    "created_at": "2024-06-13T11:33:44.592345", "currency": "EGP",
    "source_data": {"pan": "2346", "type": "card", "sub_type": "MasterCard"},
    "error_occured": False, "owner": 302852,
}
DOC_STRING = ("1000002024-06-13T11:33:44.592345EGPfalsefalse1920364654097558truefalsefalsefalsetruefalse"
              "217503754302852false2346MasterCardcardtrue")
DOC_DIGEST = ("19dece2ccfcc55800cb196e1ce3b50d53c1c182da136cf7581a60bd2d4e5378218dfe922abbc67d1ee441d0a96d01af2"
              "e156d131977d5c323f4a71336e3aa912")


def test_it_builds_paymobs_documented_concatenation():
    assert hmac_message(SAMPLE) == DOC_STRING


def test_it_reproduces_the_golden_digest():
    assert hmac_sign(SAMPLE, "test_hmac_secret") == DOC_DIGEST
    assert hmac_verify(SAMPLE, DOC_DIGEST, "test_hmac_secret")


def test_the_emulator_vector_matches_our_algorithm():
    # given the farapi emulator's published string and secret
    message = ("100002026-08-14T12:00:00.000000EGPfalsefalse9000011001falsefalsefalsefalsetruefalse700001500001false"
               "0010Visacardtrue")
    # when
    digest = hmac.new(b"sim_hmac_secret", message.encode(), hashlib.sha512).hexdigest()
    # then
    assert digest.startswith("033e0bca25918ecf") and digest.endswith("f2619b")


def test_it_verifies_the_flat_redirect_parameters_the_same_way():
    # given the GET redirect: strings, dotted keys, `order` for the order id
    flat = {
        "amount_cents": "100000", "created_at": "2024-06-13T11:33:44.592345", "currency": "EGP",
        "error_occured": "false", "has_parent_transaction": "false", "id": "192036465",
        "integration_id": "4097558", "is_3d_secure": "true", "is_auth": "false", "is_capture": "false",
        "is_refunded": "false", "is_standalone_payment": "true", "is_voided": "false", "order": "217503754",
        "owner": "302852", "pending": "false", "source_data.pan": "2346", "source_data.sub_type": "MasterCard",
        "source_data.type": "card", "success": "true",
    }
    # then
    assert hmac_verify(flat, DOC_DIGEST, "test_hmac_secret")


def test_it_rejects_a_wrong_or_missing_hmac_and_a_tampered_amount():
    tampered = {**SAMPLE, "amount_cents": 100}
    assert not hmac_verify(SAMPLE, "0" * 128, "test_hmac_secret")
    assert not hmac_verify(SAMPLE, "", "test_hmac_secret")
    assert not hmac_verify(SAMPLE, DOC_DIGEST, "")
    assert not hmac_verify(tampered, DOC_DIGEST, "test_hmac_secret")
    assert not hmac_verify(SAMPLE, DOC_DIGEST, "another_secret")


def test_a_signed_amount_or_date_in_other_digits_than_ascii_is_not_well_formed():
    # given: Python's \d also takes "𝟏" and other scripts' digits, which int() reads as a number
    for field, value in (("amount_cents", "𝟏𝟎𝟎𝟎𝟎𝟎"), ("created_at", "२०२४-06-13T11:33:44.592345")):
        odd = {**SAMPLE, field: value}
        # then
        assert not hmac_verify(odd, hmac_sign(odd, "test_hmac_secret"), "test_hmac_secret"), field
    assert hmac_verify(SAMPLE, hmac_sign(SAMPLE, "test_hmac_secret"), "test_hmac_secret")
