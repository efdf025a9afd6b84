from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import rating_views, token_views, views
from accounts.forms import LogInForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            redirect_authenticated_user=True, authentication_form=LogInForm
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/", views.set_language, name="set_language"),
    path("account/", views.edit_profile, name="edit_profile"),
    path("account/tokens/", token_views.tokens, name="api_tokens"),
    path(
        "account/tokens/<int:token_id>/revoke/",
        token_views.revoke,
        name="api_token_revoke",
    ),
    path(
        "account/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password-reset/",
        views.MemberPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("players/<str:username>/", views.profile, name="profile"),
    path("leaderboards/", rating_views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:game>/", rating_views.leaderboard, name="leaderboard"),
    path("head-to-head/", rating_views.head_to_head, name="head_to_head"),
]
