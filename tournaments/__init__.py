"""Multi-table knock-out tournaments (R-TOUR-*): rounds of deals rummy at free tables, buy-ins,
prizes and the timers that move them on. Beside fair play, above the games and the wallet."""
