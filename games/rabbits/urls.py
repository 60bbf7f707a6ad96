from django.urls import path

from games.rabbits import views

app_name = "rabbits"

urlpatterns = [
    path("<int:pk>/total/", views.total, name="total"),
]
