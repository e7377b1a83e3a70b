from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/live/", views.lobby_live, name="lobby_live"),
    path("play/<int:template_id>/", views.play_now, name="play_now"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/arrange/", views.arrange, name="arrange"),
    path("tables/<int:table_id>/leave/", views.leave, name="leave"),
    path("private/<int:template_id>/", views.open_private, name="open_private"),
    path("invite/", views.invite_form, name="invite_form"),
    path("invite/<str:code>/", views.invite, name="invite"),
    path("tables/<int:table_id>/scores/", views.scores, name="scores"),
    path("history/", views.history, name="history"),
    path("reality-check/", views.reality_check, name="reality_check"),
    path("history/deals/<int:deal_id>/", views.deal_detail, name="deal"),
]
