from django.urls import path

from games.knights import views

app_name = "knights"

urlpatterns = [
    path("<int:pk>/preview/", views.preview, name="preview"),
]
