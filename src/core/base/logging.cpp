#include "logging.h"

// Warnings by default; QT_LOGGING_RULES="sandpiper.*.info=true" shows what happens inside.
Q_LOGGING_CATEGORY(lcSandbox, "sandpiper.sandbox", QtWarningMsg)
Q_LOGGING_CATEGORY(lcApp, "sandpiper.app", QtWarningMsg)
Q_LOGGING_CATEGORY(lcAgent, "sandpiper.agent", QtWarningMsg)
Q_LOGGING_CATEGORY(lcWire, "sandpiper.agent.wire", QtWarningMsg)
Q_LOGGING_CATEGORY(lcStorage, "sandpiper.storage", QtWarningMsg)
Q_LOGGING_CATEGORY(lcMcp, "sandpiper.mcp", QtWarningMsg)
