#include "conversationfiles.h"

#include "charts/chartwidget.h"
#include "chat/highlighting.h"

#include <charts/chartspec.h>
#include <storage/conversationexport.h>
#include <storage/conversationimport.h>
#include <storage/conversationstore.h>

#include <QFileDialog>
#include <QMessageBox>
#include <QWidget>

namespace Sandpiper {

bool ConversationFiles::exportConversation(QWidget *parent, ConversationStore *store, qint64 conversationId,
                                           Format format)
{
    const auto snapshot = store->loadConversation(conversationId);
    if (!snapshot) {
        QMessageBox::warning(parent, tr("Export"), snapshot.error().message);
        return false;
    }
    const bool markdown = format == Format::Markdown;
    QString suggested = snapshot->conversation.title.isEmpty() ? tr("conversation") : snapshot->conversation.title;
    suggested.replace(QLatin1Char('/'), QLatin1Char('-'));
    suggested += markdown ? QStringLiteral(".md") : QStringLiteral(".json");
    const QString path = QFileDialog::getSaveFileName(parent, tr("Export conversation"), suggested,
                                                      markdown ? tr("Markdown (*.md)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return false;
    ConversationExport::MarkdownOptions options;
    // Charts are drawn as PNG files next to the Markdown, as they look in the chat.
    options.renderChart = [dark = Highlighting::isDark(parent->palette())](const QJsonObject &spec,
                                                                           const QString &png) {
        const auto chart = ChartSpec::fromJson(spec);
        return chart && ChartWidget::renderToPng(*chart, png, QSize(800, 480), dark);
    };
    const auto written =
        markdown
            ? ConversationExport::writeMarkdown(*snapshot, store->conversationFolder(conversationId), path, options)
            : ConversationExport::writeJson(*snapshot, path);
    if (!written) {
        QMessageBox::warning(parent, tr("Export"), written.error().message);
        return false;
    }
    return true;
}

std::optional<qint64> ConversationFiles::importConversation(QWidget *parent, ConversationStore *store)
{
    const QString path =
        QFileDialog::getOpenFileName(parent, tr("Import conversation"), QString(), tr("JSON (*.json)"));
    if (path.isEmpty())
        return std::nullopt;
    const auto imported = ConversationImport::importFile(*store, path);
    if (!imported) {
        QMessageBox::warning(parent, tr("Import conversation"), imported.error().message);
        return std::nullopt;
    }
    return imported->id;
}

} // namespace Sandpiper
