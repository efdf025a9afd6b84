"""Members: the user model, sign-up and log-in, profiles and who is online."""
