#include "logging.h"

Q_LOGGING_CATEGORY(lcSandbox, "sandpiper.sandbox", QtInfoMsg)
Q_LOGGING_CATEGORY(lcApp, "sandpiper.app", QtInfoMsg)
Q_LOGGING_CATEGORY(lcAgent, "sandpiper.agent", QtInfoMsg)
Q_LOGGING_CATEGORY(lcStorage, "sandpiper.storage", QtInfoMsg)
