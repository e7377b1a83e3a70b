// Money and chips for people: the browser's one formatter (the server's is wallet/money.py).
// Amounts are integers in hundredths (paise; chips are kept in hundredths too).

const RUPEES = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
const CHIPS = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
const CHIP_HUNDREDTHS = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 12500050 paise -> "₹1,25,000.50"; chips: 1000000 -> "10,000 chips", 980 -> "9.80 chips"
    (whole chips without decimals, else two, as the server's wallet/money.py). Never ₹ for chips. */
export function formatMoney(amount, currency = "INR") {
  if (amount === null || amount === undefined) return "";
  const value = Number(amount) / 100;
  if (currency === "CHIPS") return `${(Number.isInteger(value) ? CHIPS : CHIP_HUNDREDTHS).format(value)} chips`;
  return RUPEES.format(value);
}
