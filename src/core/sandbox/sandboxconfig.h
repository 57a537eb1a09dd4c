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
    // What the conversation's folder may hold while code runs (0: no limit); the execution that
    // goes past it is stopped, the files stay.
    qint64 diskLimitBytes = qint64(1) << 30;
    // Code that writes is stopped while the disk holding the folder has less free (0: not watched).
    qint64 minFreeDiskBytes = qint64(1) << 30;
    // A remote engine's new or changed files larger than this stay in its container, listed with
    // their size, until the user opens or saves one (figures always come back; 0: every file does).
    qint64 remoteFetchLimitBytes = qint64(8) << 20;
    // Figures saved and shown per execution; the rest are counted.
    int maxFigures = 20;
};

} // namespace Sandpiper
