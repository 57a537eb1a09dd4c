#pragma once

#include "storage/conversationsnapshot.h"
#include "storage/storeresult.h"

#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>

#include <functional>

namespace Sandpiper::ConversationExport {

// The JSON export's "format" and "version"; ConversationImport reads what this writes. A
// conversation with versions of messages (a tree) is written as version 2: each message that does
// not follow the one before it in the file names its "parent" (its place, from 1), and the
// messages off the path shown say "shown": false. One without is written as version 1, which
// earlier Sandpipers read.
inline constexpr QLatin1StringView Format("sandpiper-conversation");
inline constexpr int FormatVersion = 2;
inline constexpr int LinearFormatVersion = 1;

// Draws the normalised spec of a create_chart call as a PNG at PNGPATH. Core has no widgets, so
// the app passes one (ChartWidget::renderToPng); false when it could not.
using ChartRenderer = std::function<bool(const QJsonObject &spec, const QString &pngPath)>;

struct MarkdownOptions {
    // With a renderer a chart becomes an image in "<name>_files/charts/"; without one, or when it
    // fails, the chart's spec is written as a ```json block.
    ChartRenderer renderChart;
};

// "model · provider · 2026-12-01 10:00" (local time), or empty when nothing is known.
QString aboutLine(const Conversation &conversation);

// Walks SNAPSHOT in conversation order: each message, with the call it answers for a tool message
// (see ChatMessage::answeredCalls), and each run of code the user made themselves in place of the
// message that told the model about it (a run stored without one goes where it happened, by time).
void forEachInOrder(const ConversationSnapshot &snapshot,
                    const std::function<void(const ChatMessage &, const CallKey &answered)> &onMessage,
                    const std::function<void(const StoredExecution &)> &onUserRun);

// TEXT in a Markdown code block of LANGUAGE, fenced longer than any run of backticks inside it
// so that no content can close it early; ends in a blank line.
QString fenced(const QString &text, QLatin1StringView language);

// Writes SNAPSHOT as Markdown to FILEPATH. The figures its executions made and the images of the
// user's messages are copied from CONVERSATIONFOLDER into "<name>_files/" beside the file and
// linked relatively, so the export can be moved or shared as a whole. Code sits in ```python
// blocks, outputs in ```text blocks.
StoreResult<void> writeMarkdown(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                                const QString &filePath, const MarkdownOptions &options = {});

// The conversation as JSON: its fields, the messages as OpenAI chat messages (each with a
// "sandpiper" object for status, reasoning, usage and times) and the executions. The user's
// images are read from CONVERSATIONFOLDER and embedded as they were given, as "image_url" parts
// with data URLs, their file names in "sandpiper"."images"; one that cannot be read is named in
// "sandpiper"."images_not_exported" with the reason.
QJsonObject toJson(const ConversationSnapshot &snapshot, const QString &conversationFolder);
StoreResult<void> writeJson(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                            const QString &filePath);

} // namespace Sandpiper::ConversationExport
