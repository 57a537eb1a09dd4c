#include "mcplisting.h"

#include "mcp/mcpserverregistry.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QThread>

#include <cstdio>

namespace Sandpiper {

int listMcpTools(McpServerRegistry &registry)
{
    for (const McpConfigFile::Problem &problem : registry.configProblems())
        std::fprintf(stderr, "sandpiper-cli: %s\n", qPrintable(problem.describe(registry.configFile())));
    if (registry.configIsBroken())
        return 1;

    registry.startEnabled();
    // Each server has its own timeout for initialize and each list; the wait ends with the slowest.
    std::chrono::seconds longest = registry.defaultTimeout();
    for (const McpServerStatus &server : registry.servers())
        longest = std::max(longest, server.config.timeout);
    const QDeadlineTimer deadline(longest * 4 + std::chrono::seconds(5));
    auto pending = [&registry] {
        const QList<McpServerStatus> servers = registry.servers();
        return std::any_of(servers.begin(), servers.end(), [](const McpServerStatus &server) {
            return server.config.enabled && (server.state == McpServerStatus::State::Starting ||
                                             server.state == McpServerStatus::State::Stopped);
        });
    };
    while (pending() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(20);
    }

    int exitCode = 0;
    for (const McpServerStatus &server : registry.servers()) {
        if (!server.config.enabled)
            continue;
        if (server.state != McpServerStatus::State::Running) {
            exitCode = 1;
            const QString why = server.state == McpServerStatus::State::Failed
                                    ? server.error
                                    : QStringLiteral("it did not start in time");
            std::fprintf(stderr, "sandpiper-cli: the MCP server \"%s\" did not answer: %s\n",
                         qPrintable(server.config.name), qPrintable(why));
            continue;
        }
        for (const McpToolInfo &tool : server.tools) {
            const QString description = (tool.description.isEmpty() ? tool.title : tool.description).simplified();
            std::printf("%s\t%s\n", qPrintable(tool.exposedName), qPrintable(description));
        }
        for (const QString &problem : server.problems)
            std::fprintf(stderr, "sandpiper-cli: note: the MCP server \"%s\": %s\n", qPrintable(server.config.name),
                         qPrintable(problem));
    }
    std::fflush(stdout);
    return exitCode;
}

} // namespace Sandpiper
