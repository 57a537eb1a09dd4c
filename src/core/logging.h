#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)
Q_DECLARE_LOGGING_CATEGORY(lcApp)
