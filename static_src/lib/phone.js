// The server's phone rule (accounts.services.phone_is_valid), so that a form can say so before it is sent:
// an Egyptian mobile or landline, or a number with its country code; spaces, dashes, dots and brackets
// and Eastern Arabic digits allowed. tests/test_phone_rule_js.py keeps the two the same.
import { westernDigits } from "./digits.js";

const PHONE = /^(?:(?:\+20|0020|0)?1[0125]\d{8}|0[2-9]\d{7,8}|(?:\+|00)[1-9]\d{7,14})$/;

export const phoneValid = (phone) => PHONE.test(westernDigits(phone).replace(/[\s\-().]/g, ""));
