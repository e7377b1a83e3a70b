from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.permissions import AllowAny

from api import docs, errors, staff, tournaments, views

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(permission_classes=[AllowAny]), name="schema"),
    path("docs/", docs.docs, name="docs"),
    path("auth/signup/", views.SignUpView.as_view(), name="signup"),
    path("auth/token/", views.TokenView.as_view(), name="token"),
    path("lobby/", views.LobbyView.as_view(), name="lobby"),
    path("templates/<int:pk>/play/", views.PlayNowView.as_view(), name="play-now"),
    path("tables/<int:pk>/", views.TableView.as_view(), name="table"),
    path("tables/<int:pk>/events/", views.TableEventsView.as_view(), name="table-events"),
    path("tables/<int:pk>/join/", views.JoinView.as_view(), name="join"),
    path("tables/<int:pk>/leave/", views.LeaveView.as_view(), name="leave"),
    path("tables/<int:pk>/leave-after-deal/", views.LeaveAfterDealView.as_view(), name="leave-after-deal"),
    path("templates/<int:pk>/private/", views.PrivateTableView.as_view(), name="open-private"),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:pk>/", tournaments.TournamentView.as_view(), name="tournament"),
    path("tournaments/<int:pk>/registration/", tournaments.RegistrationView.as_view(), name="registration"),
    path("wallet/", views.WalletView.as_view(), name="wallet"),
    path("wallet/statement/", views.StatementView.as_view(), name="statement"),
    path("wallet/deposits/", views.DepositsView.as_view(), name="deposits"),
    path("wallet/withdrawals/", views.WithdrawalsView.as_view(), name="withdrawals"),
    path("wallet/chips/", views.ChipsTopUpView.as_view(), name="chips"),
    path("protection/", views.ProtectionView.as_view(), name="protection"),
    path("protection/limits/", views.LimitView.as_view(), name="protection-limit"),
    path("protection/break/", views.BreakView.as_view(), name="protection-break"),
    path("protection/identity/", views.IdentityView.as_view(), name="protection-identity"),
    path("history/", views.HistoryView.as_view(), name="history"),
    path("history/deals/<int:pk>/", views.DealDetailView.as_view(), name="deal"),
    path("staff/reports/<str:report>/", staff.ReportView.as_view(), name="report"),
    path("staff/withdrawals/", staff.StaffWithdrawalsView.as_view(), name="staff-withdrawals"),
    path("staff/withdrawals/<int:pk>/approve/", staff.ApproveWithdrawalView.as_view(), name="approve"),
    path("staff/withdrawals/<int:pk>/reject/", staff.RejectWithdrawalView.as_view(), name="reject"),
    path("staff/users/<int:pk>/wallet/", staff.StaffUserWalletView.as_view(), name="user-wallet"),
    path("staff/journals/<int:pk>/", staff.JournalView.as_view(), name="journal"),
    path("staff/journals/<int:pk>/reverse/", staff.ReverseJournalView.as_view(), name="reverse"),
    path(
        "staff/reversals/<int:pk>/withdraw/", staff.WithdrawReversalView.as_view(), name="withdraw-reversal"
    ),
    path("staff/reversals/<int:pk>/decline/", staff.DeclineReversalView.as_view(), name="decline-reversal"),
    path("staff/tables/<int:pk>/cancel/", staff.CancelTableView.as_view(), name="cancel-table"),
    re_path(r"^(?P<path>.*)$", errors.not_found, name="not-found"),
]
