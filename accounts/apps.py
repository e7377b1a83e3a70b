from django.apps import AppConfig


class AccountsConfig(AppConfig):
    # The one config of "accounts" in INSTALLED_APPS: this module holds django-otp's too.
    default = True
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.core import checks

        from accounts.mail import check_server
        from accounts.sessions import on_logged_out

        user_logged_out.connect(on_logged_out, dispatch_uid="accounts.close_session_sockets")
        checks.register(check_server, checks.Tags.security, deploy=True)


# django-otp's two apps as its own configs set them up, named for the staff who read the
# admin's index ("OTP_TOTP" otherwise).
class AuthenticatorAppsConfig(AppConfig):
    name = "django_otp.plugins.otp_totp"
    default_auto_field = "django.db.models.AutoField"
    verbose_name = "Staff authenticator apps"


class RecoveryCodesConfig(AppConfig):
    name = "django_otp.plugins.otp_static"
    default_auto_field = "django.db.models.AutoField"
    verbose_name = "Staff recovery codes"
