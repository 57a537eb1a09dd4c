#include "codeinspector.h"

#include "flowlayout.h"

#include "chat/codeeditor.h"
#include "chat/executionresultview.h"

#include <session/conversationsession.h>
#include <session/executionmodel.h>

#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

QPlainTextEdit *outputBox(const QString &accessibleName, const QFont &font)
{
    auto *box = new QPlainTextEdit;
    box->setReadOnly(true);
    box->setAccessibleName(accessibleName);
    box->setFont(font);
    box->setMaximumBlockCount(20000);
    box->setTabChangesFocus(true);
    return box;
}

// BOX under a bold CAPTION, in a widget that shows and hides both.
QWidget *part(const QString &caption, QWidget *box)
{
    auto *widget = new QWidget;
    auto *label = new QLabel(caption);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    label->setBuddy(box);
    auto *layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label);
    layout->addWidget(box, 1);
    return widget;
}

} // namespace

CodeInspector::CodeInspector(QWidget *parent)
    : QWidget(parent)
    , m_emptyState(new QWidget)
    , m_splitter(new QSplitter(Qt::Vertical))
    , m_list(new QListView)
    , m_status(new QLabel)
    , m_code(new CodeEditor)
    , m_stdout(nullptr)
    , m_stderr(nullptr)
    , m_value(new QTextBrowser)
    , m_producedArea(new QVBoxLayout)
    , m_editButton(new QPushButton(tr("Edit and run")))
    , m_restartButton(new QPushButton(tr("Restart kernel")))
{
    setAccessibleName(tr("Code inspector"));
    m_list->setAccessibleName(tr("Executions"));
    m_list->setAlternatingRowColors(true);
    m_list->setUniformItemSizes(false);
    m_list->setWordWrap(true);
    m_code->setAccessibleName(tr("Executed code"));
    m_stdout = outputBox(tr("Standard output"), m_code->font());
    m_stderr = outputBox(tr("Standard error"), m_code->font());
    QPalette errorPalette = m_stderr->palette();
    errorPalette.setColor(QPalette::Text, QColor(0xc0, 0x39, 0x2b));
    m_stderr->setPalette(errorPalette);
    m_value->setAccessibleName(tr("Displayed value"));
    m_value->setOpenLinks(false);
    // The value comes from the sandbox and is shown as plain text; should rich text ever reach
    // this view, it loads none of the files of this computer that it names.
    m_value->document()->setResourceProvider([](const QUrl &) { return QVariant(QByteArray()); });
    // Errors come from the sandbox too, and are shown as they are, never as HTML.
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setAccessibleName(tr("Execution status"));
    m_editButton->setAccessibleName(tr("Edit the code and run it in the same sandbox"));
    m_restartButton->setAccessibleName(tr("Restart the Python kernel"));
    m_editButton->setEnabled(false);

    auto *emptyTitle = new QLabel(tr("No code has run yet"));
    QFont titleFont = emptyTitle->font();
    titleFont.setBold(true);
    emptyTitle->setFont(titleFont);
    auto *emptyText = new QLabel(tr("Code the model runs appears here, with what it printed, its tables and its "
                                    "figures. Ask for something to compute, such as “plot a sine wave”; you can "
                                    "then edit the code and run it again from here."));
    emptyText->setWordWrap(true);
    emptyText->setForegroundRole(QPalette::PlaceholderText);
    auto *emptyLayout = new QVBoxLayout(m_emptyState);
    emptyLayout->setContentsMargins(8, 8, 8, 8);
    emptyLayout->addWidget(emptyTitle);
    emptyLayout->addWidget(emptyText);
    emptyLayout->addStretch();

    auto *details = new QWidget;
    auto *layout = new QVBoxLayout(details);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    m_code->setMinimumHeight(140);
    m_codePart = part(tr("Code"), m_code);
    m_outputPart = part(tr("Output"), m_stdout);
    m_errorPart = part(tr("Errors and warnings"), m_stderr);
    m_valuePart = part(tr("Value"), m_value);
    layout->addWidget(m_codePart, 3);
    layout->addWidget(m_outputPart, 2);
    layout->addWidget(m_errorPart, 1);
    layout->addWidget(m_valuePart, 1);
    layout->addLayout(m_producedArea);
    // The buttons wrap in a narrow inspector instead of widening it.
    auto *buttons = new FlowLayout;
    buttons->addWidget(m_editButton);
    buttons->addWidget(m_restartButton);
    layout->addLayout(buttons);

    m_splitter->addWidget(m_list);
    m_splitter->addWidget(details);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setSizes({110, 600});
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    outer->addWidget(m_emptyState);
    outer->addWidget(m_splitter, 1);

    connect(m_editButton, &QPushButton::clicked, this, [this] {
        if (!m_editing) {
            m_editing = true;
            m_code->setReadOnly(false);
            m_code->setFocus();
            m_editButton->setText(tr("Run"));
            return;
        }
        m_editing = false;
        m_code->setReadOnly(true);
        m_editButton->setText(tr("Edit and run"));
        if (m_session)
            m_session->runUserCode(m_code->toPlainText());
    });
    connect(m_restartButton, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->restartKernel();
    });
    setSession(nullptr);
}

ExecutionModel *CodeInspector::model() const
{
    return m_session ? m_session->executions() : nullptr;
}

void CodeInspector::setSession(ConversationSession *session)
{
    if (m_session)
        disconnect(m_session->executions(), nullptr, this, nullptr);
    m_session = session;
    // A new model comes with a new selection model; the old one is no one's.
    QItemSelectionModel *oldSelection = m_list->selectionModel();
    m_list->setModel(model());
    delete oldSelection;
    m_row = -1;
    m_restartButton->setEnabled(session != nullptr);
    if (ExecutionModel *executions = model()) {
        connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
                [this](const QModelIndex &current) {
                    showRow(current.row());
                    if (current.isValid() && !m_selectingQuietly)
                        Q_EMIT callActivated(current.data(ExecutionModel::CallKeyRole).value<CallKey>());
                });
        connect(executions, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &topLeft) {
            if (topLeft.row() == m_row)
                refreshSelected();
        });
        connect(executions, &QAbstractItemModel::rowsInserted, this, [this] { selectQuietly(0); });
        connect(executions, &QAbstractItemModel::modelReset, this, [this, executions] {
            m_row = -1;
            showRow(executions->rowCount() > 0 ? 0 : -1);
            if (executions->rowCount() > 0)
                selectQuietly(0);
        });
        if (executions->rowCount() > 0) {
            selectQuietly(0);
            return;
        }
    }
    showRow(-1);
}

void CodeInspector::selectCall(const CallKey &key)
{
    const int row = model() ? model()->rowOf(key) : -1;
    if (row >= 0 && row != m_list->currentIndex().row())
        selectQuietly(row);
}

void CodeInspector::selectQuietly(int row)
{
    const QScopedValueRollback quiet(m_selectingQuietly, true);
    m_list->setCurrentIndex(model()->index(row));
}

CallKey CodeInspector::selectedCall() const
{
    return m_list->currentIndex().data(ExecutionModel::CallKeyRole).value<CallKey>();
}

int CodeInspector::figureCount() const
{
    return m_produced ? m_produced->figureCount() : 0;
}

void CodeInspector::showRow(int row)
{
    m_row = row;
    m_editing = false;
    m_code->setReadOnly(true);
    m_editButton->setText(tr("Edit and run"));
    m_editButton->setEnabled(row >= 0);
    refreshSelected();
}

void CodeInspector::refreshSelected()
{
    const auto parts = qScopeGuard([this] { showParts(); });
    delete std::exchange(m_produced, nullptr);
    if (!model() || m_row < 0 || m_row >= model()->rowCount()) {
        m_status->setText(tr("Choose a run in the list to see its code and what it printed."));
        m_code->clear();
        m_stdout->clear();
        m_stderr->clear();
        m_value->clear();
        return;
    }
    const ExecutionModel::Item &item = model()->item(m_row);
    if (!m_editing && m_code->toPlainText() != item.code)
        m_code->setPlainText(item.code);
    if (!item.result) {
        m_status->setText(tr("Running…"));
        m_stdout->setPlainText(item.liveStdout);
        m_stderr->setPlainText(item.liveStderr);
        m_value->clear();
        return;
    }
    const ExecutionResult &r = *item.result;
    QString status =
        tr("%1 in %2 s")
            .arg(ExecutionResultView::statusText(r), QLocale().toString(double(r.durationMs) / 1000.0, 'f', 2));
    // A note without an error type (the kernel was restarted) stands alone, with no stray colon.
    QStringList error{r.errorType, r.errorMessage};
    error.removeAll(QString());
    if (!error.isEmpty())
        status += QStringLiteral(" — ") + error.join(QStringLiteral(": "));
    if (!r.stopReason.isEmpty())
        status += QStringLiteral(" — ") + r.stopReason;
    if (item.origin == RunOrigin::User)
        status += QLatin1Char(' ') + tr("(run by you)");
    m_status->setText(status);
    m_stdout->setPlainText(r.standardOutput);
    m_stderr->setPlainText(r.traceback.isEmpty() ? r.standardError : r.standardError + r.traceback);
    // Never live HTML: a table shows as a table below, the value as its text.
    m_value->setPlainText(r.value);
    showProduced(r, item.call);
}

void CodeInspector::showParts()
{
    const bool anyRun = model() && model()->rowCount() > 0;
    m_emptyState->setVisible(!anyRun);
    m_splitter->setVisible(anyRun);
    m_codePart->setVisible(anyRun && m_row >= 0 && m_row < model()->rowCount());
    m_outputPart->setVisible(!m_stdout->document()->isEmpty());
    m_errorPart->setVisible(!m_stderr->document()->isEmpty());
    m_valuePart->setVisible(!m_value->document()->isEmpty());
}

void CodeInspector::showProduced(const ExecutionResult &result, const CallKey &key)
{
    m_produced =
        new ExecutionResultView(result, m_session->folder(), ExecutionResultView::Place::Inspector, m_markdown);
    m_producedArea->addWidget(m_produced);
    connect(m_produced, &ExecutionResultView::imageShowRequested, this, &CodeInspector::imageShowRequested);
    connect(m_produced, &ExecutionResultView::tableSaveRequested, this, [this, key](int index, const QString &format) {
        if (m_session)
            m_session->exportTable(key, index, format);
    });
    connect(m_session, &ConversationSession::tableExported, m_produced,
            [view = m_produced, key](const CallKey &call, int table, const QString &fileName, const QString &error) {
                if (call == key)
                    view->showTableSaved(table, fileName, error);
            });
}

} // namespace Sandpiper
