// Money and chips for people: the browser's one formatter (the server's is wallet/money.py).
// Amounts are integers in hundredths (paise; chips are kept in hundredths too).

const RUPEES = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
const CHIPS = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });

/** 12500050 paise -> "₹1,25,000.50"; chips: 1000000 -> "10,000 chips". Never ₹ for chips. */
export function formatMoney(amount, currency = "INR") {
  if (amount === null || amount === undefined) return "";
  const value = Number(amount) / 100;
  if (currency === "CHIPS") return `${CHIPS.format(value)} chips`;
  return RUPEES.format(value);
}
