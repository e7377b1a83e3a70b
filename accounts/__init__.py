"""Players and staff: the user model, sign-up, log in and out, profile."""
