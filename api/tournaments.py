"""The player's API for tournaments: the list, one tournament's read model, register and
unregister. The answers are the pages' own read model (``tournaments.views_state``) as it is;
the serializers only document it. Refusals come back as JSON errors (``api.errors``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api import serializers as s
from api.views import ApiView, errors, player
from tournaments import services, views_state
from tournaments.models import Tournament


def _tournament(pk: int, request: Request, code: int = 200) -> Response:
    try:
        return Response(views_state.tournament(pk, player(request)), status=code)
    except Tournament.DoesNotExist:
        raise services.TournamentError("no_tournament", f"there is no tournament {pk}") from None


class TournamentListView(ApiView):
    @extend_schema(
        operation_id="tournament_list",
        summary="Tournaments announced, registering and running (soonest first), then the last ended",
        responses={200: s.TournamentRowSerializer(many=True), **errors()},
        tags=["tournaments"],
    )
    def get(self, request: Request) -> Response:
        return Response(views_state.lobby(player(request)))


class TournamentView(ApiView):
    @extend_schema(
        operation_id="tournament_view",
        summary="One tournament: structure, prize table, standings, rounds, and your entry and table",
        responses={200: s.TournamentSerializer, **errors(404)},
        tags=["tournaments"],
    )
    def get(self, request: Request, pk: int) -> Response:
        return _tournament(pk, request)


class RegistrationView(ApiView):
    @extend_schema(
        operation_id="tournament_register",
        summary="Register, paying the buy-in (R-TOUR-2); money tournaments ask protection first",
        request=None,
        responses={201: s.TournamentSerializer, **errors(404, 409)},
        tags=["tournaments"],
    )
    def post(self, request: Request, pk: int) -> Response:
        services.register(pk, player(request))
        return _tournament(pk, request, 201)

    @extend_schema(
        operation_id="tournament_unregister",
        summary="Unregister before the start: the buy-in back in full (R-TOUR-2)",
        request=None,
        responses={200: s.TournamentSerializer, **errors(404, 409)},
        tags=["tournaments"],
    )
    def delete(self, request: Request, pk: int) -> Response:
        services.unregister(pk, player(request))
        return _tournament(pk, request)
