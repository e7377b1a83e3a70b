// Reality checks (R-PROT-6): after each REALITY_CHECK_MINUTES of money play in a session, the
// table shows how long the player has played and their net result, with a way to leave after
// the deal. The server counts (games/reality.py); this decides when to show and what to say.

/** True when the session has reached a check not shown yet (`shown`: the last count shown). */
export function due(check, shown) {
  return Boolean(check && check.in_session && check.count >= 1 && check.count > (shown || 0));
}

/** "1 hour 5 minutes": how long, in words. */
export function duration(minutes) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [];
  if (hours) parts.push(`${hours} hour${hours === 1 ? "" : "s"}`);
  if (rest || !hours) parts.push(`${rest} minute${rest === 1 ? "" : "s"}`);
  return parts.join(" ");
}

/** The sentence the player reads; `netText` is the server's money text (₹1,25,000.50). */
export function message(check) {
  const result = check.net > 0 ? `up ${check.net_text}` : check.net < 0 ? `down ${check.net_text.replace("-", "")}` : "even";
  return `You have played for money for ${duration(check.minutes)} this session, and you are ${result}.`;
}

/** The storage key of the last check shown in this session. */
export function key(check) {
  return `reality-${check.session}`;
}
