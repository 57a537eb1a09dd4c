#include "mainwindow.h"

#include "aboutdialog.h"

#include <QHBoxLayout>
#include <QListView>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace Sandpiper {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_conversations(new QStandardItemModel(this))
    , m_conversationList(new QListView)
    , m_chatView(new QTextBrowser)
    , m_composer(new QPlainTextEdit)
    , m_sendButton(new QPushButton(tr("Send")))
{
    setWindowTitle(tr("Sandpiper"));
    resize(1100, 720);

    m_conversationList->setModel(m_conversations);
    m_conversationList->setAccessibleName(tr("Conversations"));
    m_conversationList->setMinimumWidth(200);

    m_chatView->setAccessibleName(tr("Chat"));
    m_chatView->setPlaceholderText(tr("Ask a question: the model can run Python, draw charts and search the web."));

    m_composer->setAccessibleName(tr("Message"));
    m_composer->setPlaceholderText(tr("Type a message"));
    m_composer->setTabChangesFocus(true);
    m_composer->setMaximumHeight(120);
    m_sendButton->setAccessibleName(tr("Send message"));

    auto *composerRow = new QHBoxLayout;
    composerRow->addWidget(m_composer);
    composerRow->addWidget(m_sendButton, 0, Qt::AlignBottom);

    auto *chatPane = new QWidget;
    auto *chatLayout = new QVBoxLayout(chatPane);
    chatLayout->setContentsMargins(0, 0, 0, 0);
    chatLayout->addWidget(m_chatView, 1);
    chatLayout->addLayout(composerRow);

    auto *splitter = new QSplitter;
    splitter->addWidget(m_conversationList);
    splitter->addWidget(chatPane);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({240, 860});
    setCentralWidget(splitter);

    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAction->setShortcut(QKeySequence::Quit);
    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&About Sandpiper"), this, [this] { AboutDialog(this).exec(); });

    m_composer->setFocus();
}

} // namespace Sandpiper
