from django.apps import AppConfig


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = "Wallet and ledger"
