from django.urls import path

from backoffice import (
    audit,
    cases,
    live,
    players,
    protection,
    reversals,
    totp,
    tournaments,
    views,
    voids,
    withdrawals,
)
from backoffice.models import Closed

app_name = "backoffice"

urlpatterns = [
    path("totp/", totp.verify, name="totp"),
    path("totp/setup/", totp.setup, name="totp_setup"),
    path("", views.home, name="home"),
    path("tables/", live.tables, name="tables"),
    path("players/", players.players, name="players"),
    path("players/<int:user_id>/", players.player, name="player"),
    path("players/<int:user_id>/statement/", players.statement, name="statement"),
    path(
        "players/<int:user_id>/statement/reverse/<int:journal_id>/",
        reversals.reverse_entry,
        name="reverse_entry",
    ),
    path("withdrawals/", withdrawals.queue, name="withdrawals"),
    path("withdrawals/<int:withdrawal_id>/decide/", withdrawals.decide, name="decide_withdrawal"),
    path("reports/", views.index, name="index"),
    path("reports/<slug:slug>/", views.report, name="report"),
    path("identity/", protection.identity_queue, name="identity"),
    path("identity/<int:user_id>/decide/", protection.decide_identity, name="decide_identity"),
    path("identity/moves/<int:change_id>/decide/", protection.decide_region, name="decide_region"),
    path("protection/", protection.report, name="protection"),
    path("audit/", audit.audit, name="audit"),
    path("cases/", cases.cases, name="cases"),
    path("cases/open/", cases.open_case, name="open_case"),
    path("cases/<int:case_id>/", cases.case, name="case"),
    path("cases/<int:case_id>/act/", cases.act, name="case_act"),
    path("cases/<int:case_id>/refund/", cases.propose_refund, name="propose_refund"),
    path("cases/<int:case_id>/deals/<int:deal_id>/", cases.case_deal, name="case_deal"),
    path("cases/refunds/<int:request_id>/confirm/", cases.confirm_refund, name="confirm_refund"),
    path("cases/refunds/<int:request_id>/withdraw/", cases.withdraw_refund, name="withdraw_refund"),
    path("cases/refunds/<int:request_id>/decline/", cases.decline_refund, name="decline_refund"),
    path("voids/", voids.voids, name="voids"),
    path("voids/request/", voids.request_void, name="request_void"),
    path("voids/<int:request_id>/confirm/", voids.confirm_void, name="confirm_void"),
    path("voids/<int:request_id>/withdraw/", voids.close, {"how": Closed.WITHDRAWN}, name="withdraw_void"),
    path("voids/<int:request_id>/decline/", voids.close, {"how": Closed.DECLINED}, name="decline_void"),
    path("tournaments/", tournaments.tournaments, name="tournaments"),
    path("tournaments/create/", tournaments.create, name="create_tournament"),
    path("tournaments/<int:tournament_id>/ask/", tournaments.ask, name="ask_tournament_end"),
    path(
        "tournaments/requests/<int:request_id>/confirm/", tournaments.confirm, name="confirm_tournament_end"
    ),
    path(
        "tournaments/requests/<int:request_id>/withdraw/",
        tournaments.close,
        {"how": Closed.WITHDRAWN},
        name="withdraw_tournament_end",
    ),
    path(
        "tournaments/requests/<int:request_id>/decline/",
        tournaments.close,
        {"how": Closed.DECLINED},
        name="decline_tournament_end",
    ),
]
