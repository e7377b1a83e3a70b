from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("<int:tournament_id>/", views.tournament, name="tournament"),
    path("<int:tournament_id>/live/", views.live_part, name="live"),
    path("<int:tournament_id>/result/", views.result, name="result"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/unregister/", views.unregister, name="unregister"),
]
