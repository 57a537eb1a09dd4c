#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)
Q_DECLARE_LOGGING_CATEGORY(lcApp)
Q_DECLARE_LOGGING_CATEGORY(lcAgent)
// Each request's body as sent, at debug level: the conversation itself, so never on unless asked
// for (QT_LOGGING_RULES="sandpiper.agent.wire.debug=true"; scripts/bench runner asks the hand-started
// server the very request the app sent).
Q_DECLARE_LOGGING_CATEGORY(lcWire)
Q_DECLARE_LOGGING_CATEGORY(lcStorage)
Q_DECLARE_LOGGING_CATEGORY(lcMcp)
