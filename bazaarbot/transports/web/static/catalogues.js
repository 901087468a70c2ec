// The chat page's words in every language the bot speaks.
// Generated from bazaarbot/locale/*/LC_MESSAGES/web.po by
// `python -m bazaarbot.i18n_tools refresh`; do not edit by hand.
window.BAZAARBOT_CATALOGUES = {
 "de": {},
 "es": {}
};
