#pragma once

#include <QString>

#include <chrono>

namespace Sandpiper {

// How a conversation's sandbox container is started and limited. Every field is a setting.
struct SandboxConfig {
    QString image;          // e.g. BuildInfo::defaultSandboxImage
    QString conversationId; // labels the container, names it
    QString dataDirectory;  // host folder mounted at /mnt/data
    QString memory = QStringLiteral("2g");
    double cpus = 2.0;
    int pidsLimit = 256;
    QString tmpSize = QStringLiteral("256m");
    bool network = false;
    std::chrono::milliseconds executionTimeout = std::chrono::seconds(60);
    // How long an interrupted kernel may take to come back before its container is replaced.
    std::chrono::milliseconds interruptGrace = std::chrono::seconds(5);
    std::chrono::milliseconds idleStop = std::chrono::minutes(15);
    std::chrono::milliseconds startTimeout = std::chrono::seconds(60);
    qint64 outputLimitBytes = 1024 * 1024; // per stream and execution
    // What the conversation's folder may hold (0: no limit); an attachment that would pass it is refused.
    qint64 diskLimitBytes = qint64(1) << 30;
};

} // namespace Sandpiper
