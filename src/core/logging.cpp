#include "logging.h"

Q_LOGGING_CATEGORY(lcSandbox, "sandpiper.sandbox", QtInfoMsg)
Q_LOGGING_CATEGORY(lcApp, "sandpiper.app", QtInfoMsg)
