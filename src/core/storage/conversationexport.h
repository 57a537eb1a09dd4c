#pragma once

#include "storage/conversationsnapshot.h"
#include "storage/storeresult.h"

#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>

#include <functional>

namespace Sandpiper::ConversationExport {

// The JSON export's "format" and "version"; ConversationImport reads what this writes.
inline constexpr QLatin1StringView Format("sandpiper-conversation");
inline constexpr int FormatVersion = 1;

// Draws the normalised spec of a create_chart call as a PNG at PNGPATH. Core has no widgets, so
// the app passes one (ChartWidget::renderToPng); false when it could not.
using ChartRenderer = std::function<bool(const QJsonObject &spec, const QString &pngPath)>;

struct MarkdownOptions {
    // With a renderer a chart becomes an image in "<name>_files/charts/"; without one, or when it
    // fails, the chart's spec is written as a ```json block.
    ChartRenderer renderChart;
};

// Writes SNAPSHOT as Markdown to FILEPATH. The figures its executions made are copied from
// CONVERSATIONFOLDER into "<name>_files/" beside the file and linked relatively, so the export
// can be moved or shared as a whole. Code sits in ```python blocks, outputs in ```text blocks.
StoreResult<void> writeMarkdown(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                                const QString &filePath, const MarkdownOptions &options = {});

// The conversation as JSON: its fields, the messages as OpenAI chat messages (each with a
// "sandpiper" object for status, reasoning, usage and times) and the executions.
QJsonObject toJson(const ConversationSnapshot &snapshot);
StoreResult<void> writeJson(const ConversationSnapshot &snapshot, const QString &filePath);

} // namespace Sandpiper::ConversationExport
