#pragma once

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <functional>

namespace Sandpiper::Test {

// Keeps the event loop running until CONDITION holds; false when TIMEOUTMS passed first.
inline bool waitUntil(const std::function<bool()> &condition, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QTest::qWait(50);
    }
    return true;
}

// execute_python_code's arguments for CODE, as a model sends them.
inline QString codeArguments(const QString &code)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson(QJsonDocument::Compact));
}

} // namespace Sandpiper::Test
