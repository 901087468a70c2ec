"""What the tests share: drivers for the console, IRC, Matrix and the web, game helpers, paths."""
