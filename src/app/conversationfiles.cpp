#include "conversationfiles.h"

#include "savelocation.h"

#include "chartviews/chartwidget.h"
#include "chat/highlighting.h"

#include <charts/chartspec.h>
#include <sandbox/imagemanager.h>
#include <storage/conversationexport.h>
#include <storage/conversationimport.h>
#include <storage/conversationstore.h>

#include <QFileDialog>
#include <QMessageBox>
#include <QPointer>
#include <QThread>
#include <QWidget>

#include <QCoroThread>

namespace Sandpiper {

std::optional<QString> ConversationFiles::exportConversation(QWidget *parent, ConversationStore *store,
                                                             qint64 conversationId, Format format)
{
    const auto snapshot = store->loadConversation(conversationId);
    if (!snapshot) {
        QMessageBox::warning(parent, tr("Export"), snapshot.error().message);
        return std::nullopt;
    }
    const bool markdown = format == Format::Markdown;
    QString suggested = snapshot->conversation.title.isEmpty() ? tr("conversation") : snapshot->conversation.title;
    suggested.replace(QLatin1Char('/'), QLatin1Char('-'));
    suggested += markdown ? QStringLiteral(".md") : QStringLiteral(".json");
    const QString path =
        QFileDialog::getSaveFileName(parent, tr("Export conversation"), SaveLocation::suggest(suggested),
                                     markdown ? tr("Markdown (*.md)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return std::nullopt;
    SaveLocation::remember(path);
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
            : ConversationExport::writeJson(*snapshot, store->conversationFolder(conversationId), path);
    if (!written) {
        QMessageBox::warning(parent, tr("Export"), written.error().message);
        return std::nullopt;
    }
    return path;
}

QCoro::Task<std::optional<ConversationFiles::ExportedNotebook>>
ConversationFiles::exportNotebook(QWidget *parent, ConversationStore *store, qint64 conversationId, QString image)
{
    QPointer<QWidget> window(parent);
    const auto conversation = store->conversation(conversationId);
    if (!conversation) {
        QMessageBox::warning(parent, tr("Export as notebook"), conversation.error().message);
        co_return std::nullopt;
    }
    QString suggested = conversation->title.isEmpty() ? tr("conversation") : conversation->title;
    suggested.replace(QLatin1Char('/'), QLatin1Char('-'));
    const QString path = QFileDialog::getSaveFileName(parent, tr("Export as notebook"),
                                                      SaveLocation::suggest(suggested + QStringLiteral(".ipynb")),
                                                      tr("Jupyter notebook (*.ipynb)"));
    if (path.isEmpty())
        co_return std::nullopt;
    SaveLocation::remember(path);
    NotebookExport::Environment environment{image, co_await ImageManager::pythonVersion(image)};
    if (!window)
        co_return std::nullopt;
    // Loaded after the wait, so the notebook holds what the conversation has now.
    const auto snapshot = store->loadConversation(conversationId);
    if (!snapshot) {
        QMessageBox::warning(window, tr("Export as notebook"), snapshot.error().message);
        co_return std::nullopt;
    }
    // Figures are read and encoded off the window's thread: a long conversation takes seconds.
    std::optional<StoreResult<NotebookExport::Summary>> written;
    std::unique_ptr<QThread> worker(
        QThread::create([&written, snapshot = *snapshot, folder = store->conversationFolder(conversationId), path,
                         environment] { written = NotebookExport::write(snapshot, folder, path, environment); }));
    worker->start();
    // A backstop only: the export is finite work, and the thread must end before its object does.
    if (!co_await qCoro(worker.get()).waitForFinished(std::chrono::minutes(10)))
        worker->wait();
    if (!window)
        co_return std::nullopt;
    if (!*written) {
        QMessageBox::warning(window, tr("Export as notebook"), written->error().message);
        co_return std::nullopt;
    }
    co_return ExportedNotebook{path, **written};
}

std::optional<qint64> ConversationFiles::importConversation(QWidget *parent, ConversationStore *store)
{
    const QString path = QFileDialog::getOpenFileName(parent, tr("Import conversation"),
                                                      SaveLocation::suggest(QString()), tr("JSON (*.json)"));
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
