#pragma once

#include <QMainWindow>

class QListView;
class QPlainTextEdit;
class QPushButton;
class QStandardItemModel;
class QTextBrowser;

namespace Sandpiper {

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    QListView *conversationList() const { return m_conversationList; }
    QTextBrowser *chatView() const { return m_chatView; }
    QPlainTextEdit *composer() const { return m_composer; }

private:
    QStandardItemModel *m_conversations;
    QListView *m_conversationList;
    QTextBrowser *m_chatView;
    QPlainTextEdit *m_composer;
    QPushButton *m_sendButton;
};

} // namespace Sandpiper
