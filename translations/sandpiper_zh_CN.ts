<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Sandpiper</source>
        <translation>关于 Sandpiper</translation>
    </message>
    <message>
        <source>Chat with language models that run Python in a local sandbox, draw charts and search the web.</source>
        <translation>与语言模型聊天：它们可以在本地沙箱中运行 Python、绘制图表并搜索网络。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>AttachmentTable</name>
    <message>
        <source>The file could not be attached.</source>
        <translation>无法附加该文件。</translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation>%1 不是文件。</translation>
    </message>
    <message>
        <source>%1 (%2) would take the conversation&apos;s files past their %3 limit (%4 are used). Delete files of the conversation or raise the limit in the settings.</source>
        <translation>%1（%2）会使对话的文件超出 %3 的上限（已用 %4）。请删除对话中的文件，或在设置中提高上限。</translation>
    </message>
    <message>
        <source>%1 (%2) would leave less than %3 free on the disk that holds the conversation&apos;s files.</source>
        <translation>%1（%2）会使存放对话文件的磁盘剩余空间少于 %3。</translation>
    </message>
    <message>
        <source>%1 cannot be copied to %2: %3</source>
        <translation>无法将 %1 复制到 %2：%3</translation>
    </message>
    <message>
        <source>The attachments could not be read.</source>
        <translation>无法读取附件。</translation>
    </message>
    <message>
        <source>The attachment could not be removed.</source>
        <translation>无法移除附件。</translation>
    </message>
    <message>
        <source>There is no attachment with the id %1.</source>
        <translation>没有 ID 为 %1 的附件。</translation>
    </message>
    <message>
        <source>The attachment was removed from the conversation, but the file %1 could not be deleted.</source>
        <translation>附件已从对话中移除，但无法删除文件 %1。</translation>
    </message>
</context>
<context>
    <name>ChartPresenter</name>
    <message>
        <source>chart</source>
        <translation>图表</translation>
    </message>
</context>
<context>
    <name>ContentFilter</name>
    <message>
        <source>The model&apos;s tool call was cut off before it was complete, so it was not run; it is shown as text.</source>
        <translation>模型的工具调用在完成前被截断，因此没有运行；它以文本形式显示。</translation>
    </message>
</context>
<context>
    <name>ContextShortener</name>
    <message>
        <source>leaves out the oldest turn</source>
        <translation>省略最早的一轮对话</translation>
    </message>
    <message>
        <source>leaves out the %1 oldest turns</source>
        <translation>省略最早的 %1 轮对话</translation>
    </message>
    <message>
        <source>leaves out an earlier tool round</source>
        <translation>省略一轮较早的工具调用</translation>
    </message>
    <message>
        <source>leaves out %1 earlier tool rounds</source>
        <translation>省略 %1 轮较早的工具调用</translation>
    </message>
    <message>
        <source>shortens a tool result</source>
        <translation>缩短一个工具结果</translation>
    </message>
    <message>
        <source>shortens %1 tool results</source>
        <translation>缩短 %1 个工具结果</translation>
    </message>
    <message>
        <source>To fit the model&apos;s context window of %1 tokens, this request %2. The conversation itself is kept in full.</source>
        <translation>为了适应模型 %1 个词元的上下文窗口，此请求%2。对话本身完整保留。</translation>
    </message>
    <message>
        <source>The last message and what it needs come close to or exceed the model&apos;s context window of %1 tokens; the server may refuse the request.</source>
        <translation>最后一条消息及其所需内容接近或超过模型 %1 个词元的上下文窗口；服务器可能会拒绝该请求。</translation>
    </message>
</context>
<context>
    <name>ConversationFiles</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export as notebook</source>
        <translation>导出为笔记本</translation>
    </message>
    <message>
        <source>Jupyter notebook (*.ipynb)</source>
        <translation>Jupyter 笔记本 (*.ipynb)</translation>
    </message>
    <message>
        <source>Import conversation</source>
        <translation>导入对话</translation>
    </message>
</context>
<context>
    <name>ConversationStore</name>
    <message>
        <source>The conversation could not be read.</source>
        <translation>无法读取该对话。</translation>
    </message>
    <message>
        <source>The conversation could not be imported.</source>
        <translation>无法导入该对话。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be created.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>The file %1 cannot be written: %2</source>
        <translation>无法写入文件 %1：%2</translation>
    </message>
    <message>
        <source>A message comes before the message it follows.</source>
        <translation>一条消息排在了它所跟随的消息之前。</translation>
    </message>
</context>
<context>
    <name>ConversationTable</name>
    <message>
        <source>A new conversation could not be created.</source>
        <translation>无法创建新对话。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be created.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>The conversations could not be read.</source>
        <translation>无法读取对话列表。</translation>
    </message>
    <message>
        <source>The conversation could not be renamed.</source>
        <translation>无法重命名该对话。</translation>
    </message>
    <message>
        <source>The conversation&apos;s model could not be changed.</source>
        <translation>无法更改该对话的模型。</translation>
    </message>
    <message>
        <source>The conversation&apos;s settings could not be saved.</source>
        <translation>无法保存该对话的设置。</translation>
    </message>
    <message>
        <source>The conversation could not be deleted.</source>
        <translation>无法删除该对话。</translation>
    </message>
</context>
<context>
    <name>ExecutionTable</name>
    <message>
        <source>The execution could not be saved.</source>
        <translation>无法保存该次执行。</translation>
    </message>
    <message>
        <source>The executions could not be read.</source>
        <translation>无法读取执行记录。</translation>
    </message>
    <message>
        <source>There is no execution with the id %1.</source>
        <translation>没有 ID 为 %1 的执行记录。</translation>
    </message>
</context>
<context>
    <name>FolderSnapshots</name>
    <message>
        <source>it grew past %1</source>
        <translation>它已增长到超过 %1</translation>
    </message>
    <message>
        <source>The recorded files could not be read.</source>
        <translation>无法读取已记录的文件。</translation>
    </message>
    <message>
        <source>The conversation has no run of code with the id %1.</source>
        <translation>该对话中没有 ID 为 %1 的代码运行记录。</translation>
    </message>
    <message>
        <source>The files of this branch were not recorded: its code ran before Sandpiper kept the conversation&apos;s files with each branch. The folder is left as it is.</source>
        <translation>此分支的文件未被记录：它的代码运行于 Sandpiper 开始随每个分支保存对话文件之前。文件夹保持原样。</translation>
    </message>
    <message>
        <source>The attachments could not be read.</source>
        <translation>无法读取附件。</translation>
    </message>
    <message>
        <source>The files of the conversation&apos;s folder could not be recorded.</source>
        <translation>无法记录对话文件夹中的文件。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be created.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>“%1” (%2) was not kept: it is larger than the sandbox&apos;s limit of %3.</source>
        <translation>未保留“%1”（%2）：它超过了沙箱 %3 的上限。</translation>
    </message>
    <message>
        <source>“%1” (%2) was not kept: the disk that holds Sandpiper&apos;s data has %3 free.</source>
        <translation>未保留“%1”（%2）：存放 Sandpiper 数据的磁盘只有 %3 可用空间。</translation>
    </message>
    <message>
        <source>“%1” was not kept: %2</source>
        <translation>未保留“%1”：%2</translation>
    </message>
    <message>
        <source>The files of this branch could not be put back.</source>
        <translation>无法恢复此分支的文件。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be opened: %2.</source>
        <translation>无法打开文件夹 %1：%2。</translation>
    </message>
    <message>
        <source>This branch&apos;s files take %1; the sandbox may hold %2.</source>
        <translation>此分支的文件占用 %1；沙箱最多可容纳 %2。</translation>
    </message>
    <message>
        <source>This branch&apos;s files need %1 more on the disk that holds the conversation&apos;s folder, which has %2 free.</source>
        <translation>此分支的文件还需要在存放对话文件夹的磁盘上多占用 %1，而该磁盘只有 %2 可用空间。</translation>
    </message>
    <message>
        <source>The kept copy of “%1” is missing (%2); the folder is left as it was.</source>
        <translation>“%1”的保留副本已丢失（%2）；文件夹保持原样。</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>its content does not match its hash</source>
        <translation>其内容与哈希值不符</translation>
    </message>
    <message>
        <source>The kept copy of “%1” is damaged (%2); the folder is left as it was.</source>
        <translation>“%1”的保留副本已损坏（%2）；文件夹保持原样。</translation>
    </message>
    <message>
        <source>“%1” could not be removed: %2.</source>
        <translation>无法删除“%1”：%2。</translation>
    </message>
    <message>
        <source>“%1” could not be written: %2.</source>
        <translation>无法写入“%1”：%2。</translation>
    </message>
    <message>
        <source>Some files of this branch were not kept when its code ran:</source>
        <translation>运行此分支的代码时，有些文件未被保留：</translation>
    </message>
</context>
<context>
    <name>McpPresenter</name>
    <message>
        <source>%1 (MCP server %2)</source>
        <translation>%1（MCP 服务器 %2）</translation>
    </message>
    <message>
        <source>Always allow this tool</source>
        <translation>始终允许此工具</translation>
    </message>
    <message>
        <source>The MCP server %1 is a program on this computer that runs with your rights. Check the arguments before it runs them; &quot;Always allow&quot; lasts until you take it back in Settings › MCP.</source>
        <translation>MCP 服务器 %1 是这台计算机上以你的权限运行的程序。运行前请检查参数；“始终允许”会一直有效，直到你在“设置 › MCP”中撤销。</translation>
    </message>
    <message>
        <source>Resource: %1 &lt;span style=&quot;color: gray;&quot;&gt;%2 %3&lt;/span&gt;%4</source>
        <translation>资源：%1 &lt;span style=&quot;color: gray;&quot;&gt;%2 %3&lt;/span&gt;%4</translation>
    </message>
    <message>
        <source>Resource %1</source>
        <translation>资源 %1</translation>
    </message>
</context>
<context>
    <name>MessageTable</name>
    <message>
        <source>There is no message with the id %1.</source>
        <translation>没有 ID 为 %1 的消息。</translation>
    </message>
    <message>
        <source>The message could not be saved.</source>
        <translation>无法保存该消息。</translation>
    </message>
    <message>
        <source>The messages could not be read.</source>
        <translation>无法读取消息。</translation>
    </message>
    <message>
        <source>The version could not be shown.</source>
        <translation>无法显示该版本。</translation>
    </message>
    <message>
        <source>The version could not be deleted.</source>
        <translation>无法删除该版本。</translation>
    </message>
    <message>
        <source>The versions of the message could not be read.</source>
        <translation>无法读取该消息的各个版本。</translation>
    </message>
</context>
<context>
    <name>ModelImage</name>
    <message>
        <source>%1 is %2; images up to %3 can be shown to the model. It is in /mnt/data for the code.</source>
        <translation>%1 大小为 %2；最多 %3 的图像才能显示给模型。它已放在 /mnt/data 中供代码使用。</translation>
    </message>
    <message>
        <source>%1 is not an image Sandpiper can read (it reads %2).</source>
        <translation>%1 不是 Sandpiper 能读取的图像（它能读取 %2）。</translation>
    </message>
    <message>
        <source>%1 has %2 × %3 pixels, too many to be shown to the model.</source>
        <translation>%1 有 %2 × %3 像素，太多，无法显示给模型。</translation>
    </message>
    <message>
        <source>%1 could not be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>The image %1 is no longer there.</source>
        <translation>图像 %1 已不存在。</translation>
    </message>
    <message>
        <source>%1 could not be read as an image: %2.</source>
        <translation>无法将 %1 作为图像读取：%2。</translation>
    </message>
    <message>
        <source>%1 could not be prepared for the model.</source>
        <translation>无法为模型准备 %1。</translation>
    </message>
</context>
<context>
    <name>ModelReport</name>
    <message>
        <source>Plain answer</source>
        <translation>普通回答</translation>
    </message>
    <message>
        <source>One tool call</source>
        <translation>单个工具调用</translation>
    </message>
    <message>
        <source>Two parallel calls</source>
        <translation>两个并行调用</translation>
    </message>
    <message>
        <source>After a tool result</source>
        <translation>工具结果之后</translation>
    </message>
    <message>
        <source>Long prompt</source>
        <translation>长提示词</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>no answer: %1</source>
        <translation>无回答：%1</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>无回答</translation>
    </message>
    <message>
        <source>native calls</source>
        <translation>原生调用</translation>
    </message>
    <message>
        <source>text calls (%1)</source>
        <translation>文本调用（%1）</translation>
    </message>
    <message>
        <source>no tool calls</source>
        <translation>无工具调用</translation>
    </message>
    <message>
        <source>tool calls failed</source>
        <translation>工具调用失败</translation>
    </message>
    <message>
        <source>parallel</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>one call at a time</source>
        <translation>一次一个调用</translation>
    </message>
    <message>
        <source>reasoning in a field</source>
        <translation>推理在单独字段中</translation>
    </message>
    <message>
        <source>reasoning in tags</source>
        <translation>推理在标签中</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source>vision</source>
        <translation>视觉</translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source>Report card for %1 at %2 (%3)</source>
        <translation>%2 上 %1 的测试报告（%3）</translation>
    </message>
    <message>
        <source>Verdict: %1</source>
        <translation>结论：%1</translation>
    </message>
    <message>
        <source>native tool_calls</source>
        <translation>原生 tool_calls</translation>
    </message>
    <message>
        <source>written as text in the %1 dialect, recovered by Sandpiper</source>
        <translation>以 %1 格式写成文本，由 Sandpiper 识别还原</translation>
    </message>
    <message>
        <source>none: the model answered without calling the tool</source>
        <translation>无：模型未调用工具就直接回答了</translation>
    </message>
    <message>
        <source>unknown: the request failed</source>
        <translation>未知：请求失败</translation>
    </message>
    <message>
        <source>Tool calls:           %1</source>
        <translation>工具调用：            %1</translation>
    </message>
    <message>
        <source>Parallel calls:       %1</source>
        <translation>并行调用：            %1</translation>
    </message>
    <message>
        <source>yes, both came back in one answer</source>
        <translation>是，两个调用都在同一个回答中返回</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>After a tool result:  %1</source>
        <translation>工具结果之后：        %1</translation>
    </message>
    <message>
        <source>answers</source>
        <translation>会回答</translation>
    </message>
    <message>
        <source>in a field of its own</source>
        <translation>在单独的字段中</translation>
    </message>
    <message>
        <source>in tags inside the content</source>
        <translation>在内容中的标签里</translation>
    </message>
    <message>
        <source>none seen</source>
        <translation>未发现</translation>
    </message>
    <message>
        <source>Reasoning:            %1</source>
        <translation>推理：                %1</translation>
    </message>
    <message>
        <source>%1 tokens (%2)</source>
        <translation>%1 个词元（%2）</translation>
    </message>
    <message>
        <source>— a prompt of %1 tokens was taken</source>
        <translation>— 已接受 %1 个词元的提示词</translation>
    </message>
    <message>
        <source>Context window:       %1</source>
        <translation>上下文窗口：          %1</translation>
    </message>
    <message>
        <source>Vision:               %1</source>
        <translation>视觉：                %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>Speed:                %1</source>
        <translation>速度：                %1</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source>Time to first token:  %1</source>
        <translation>首个词元用时：        %1</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Probe cost:           %1 tokens sent, %2 received%3</source>
        <translation>测试开销：            发送 %1 个词元，接收 %2 个%3</translation>
    </message>
    <message>
        <source>(partly estimated)</source>
        <translation>（部分为估算）</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>步骤：</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>  %1 %2 (%3 ms): %4</source>
        <translation>  %1 %2（%3 毫秒）：%4</translation>
    </message>
    <message>
        <source>Settings for this provider:</source>
        <translation>此服务商的设置：</translation>
    </message>
    <message>
        <source>set</source>
        <translation>已设置</translation>
    </message>
    <message>
        <source>already so</source>
        <translation>已是该值</translation>
    </message>
    <message>
        <source>suggested</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>  %1 = %2 (%3): %4</source>
        <translation>  %1 = %2（%3）：%4</translation>
    </message>
</context>
<context>
    <name>ProviderDetector</name>
    <message>
        <source>Connected: 1 model available.</source>
        <translation>已连接：有 1 个模型可用。</translation>
    </message>
    <message>
        <source>Connected: %1 models available.</source>
        <translation>已连接：有 %1 个模型可用。</translation>
    </message>
    <message>
        <source>The server refused the API key (HTTP %1). Check the key.</source>
        <translation>服务器拒绝了 API 密钥（HTTP %1）。请检查密钥。</translation>
    </message>
    <message>
        <source>The server could not be reached: %1</source>
        <translation>无法连接到服务器：%1</translation>
    </message>
    <message>
        <source>The server answered, but not like an OpenAI-compatible API. Check that the base URL ends where /chat/completions would start (often /v1).</source>
        <translation>服务器有响应，但不像是 OpenAI 兼容的 API。请确认基础 URL 的结尾正好是 /chat/completions 的起点（通常是 /v1）。</translation>
    </message>
</context>
<context>
    <name>PythonPresenter</name>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Ran %1 · %2 s · %3</source>
        <translation>已运行 %1 · %2 秒 · %3</translation>
    </message>
    <message>
        <source>You ran %1 · %2 s · %3</source>
        <translation>你运行了 %1 · %2 秒 · %3</translation>
    </message>
</context>
<context>
    <name>SandboxHealth</name>
    <message>
        <source>Docker is not installed, so the model cannot run Python. Install it, then restart Sandpiper.</source>
        <translation>未安装 Docker，因此模型无法运行 Python。请安装 Docker，然后重新启动 Sandpiper。</translation>
    </message>
    <message>
        <source>You may not use Docker yet, so the model cannot run Python. Join the docker group, then log out and back in.</source>
        <translation>你尚无权限使用 Docker，因此模型无法运行 Python。请加入 docker 用户组，然后注销并重新登录。</translation>
    </message>
    <message>
        <source>Docker is not running, so the model cannot run Python. Start it:</source>
        <translation>Docker 未在运行，因此模型无法运行 Python。请启动 Docker：</translation>
    </message>
    <message>
        <source>The sandbox image %1 is missing, so the model cannot run Python yet. Build it:</source>
        <translation>缺少沙箱镜像 %1，因此模型暂时无法运行 Python。请构建该镜像：</translation>
    </message>
</context>
<context>
    <name>Sandpiper</name>
    <message>
        <source>The base URL is empty.</source>
        <translation>基础 URL 为空。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid http or https URL.</source>
        <translation>“%1”不是有效的 http 或 https URL。</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
</context>
<context>
    <name>Sandpiper::AboutDialog</name>
    <message>
        <source>Qt %1 · sandbox image %2 · MIT License</source>
        <translation>Qt %1 · 沙箱镜像 %2 · MIT 许可证</translation>
    </message>
</context>
<context>
    <name>Sandpiper::AgentLoop</name>
    <message>
        <source>%1 Trying again in %2 s (%3 of %4).</source>
        <translation>%1 将在 %2 秒后重试（第 %3 次，共 %4 次）。</translation>
    </message>
    <message>
        <source>This conversation could not be saved: %1</source>
        <translation>无法保存此对话：%1</translation>
    </message>
    <message>
        <source>Stopped before the message was sent.</source>
        <translation>在发送消息之前已停止。</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish, or stop it, before sending.</source>
        <translation>请等待当前回答完成或将其停止，然后再发送。</translation>
    </message>
    <message>
        <source>The sandbox did not write the file.</source>
        <translation>沙箱没有写入该文件。</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish before restoring the variables.</source>
        <translation>请等当前回答结束后再恢复变量。</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish before running code.</source>
        <translation>请等待当前回答完成后再运行代码。</translation>
    </message>
    <message>
        <source>Python is not available: the sandbox is switched off.</source>
        <translation>Python 不可用：沙箱已关闭。</translation>
    </message>
    <message>
        <source>Stopped: the model reached the limit of %1 tool rounds for one message. Send another message to let it continue.</source>
        <translation>已停止：模型已达到单条消息 %1 轮工具调用的上限。再发送一条消息即可让它继续。</translation>
    </message>
    <message>
        <source>The answer above is incomplete. %1</source>
        <translation>上面的回答不完整。%1</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish, or stop it, before asking again.</source>
        <translation>再问之前，请等待当前回答完成或将其停止。</translation>
    </message>
    <message>
        <source>There is no question to answer again.</source>
        <translation>没有可以重新回答的问题。</translation>
    </message>
    <message>
        <source>Stopped before the model wrote anything. Regenerate the answer (Ctrl+Shift+R) to ask again.</source>
        <translation>模型尚未写出任何内容就已停止。重新生成回答（Ctrl+Shift+R）即可再次提问。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ApiKeyStore</name>
    <message>
        <source>the keychain did not answer</source>
        <translation>钥匙串没有响应</translation>
    </message>
    <message>
        <source>no keychain service, such as GNOME Keyring or KWallet, answers</source>
        <translation>没有钥匙串服务（例如 GNOME Keyring 或 KWallet）响应</translation>
    </message>
</context>
<context>
    <name>Sandpiper::AppearanceSettingsPage</name>
    <message>
        <source>&amp;Notify me when an answer that took over 10 s ends in the background</source>
        <translation>耗时超过 10 秒的回答在后台完成时通知我(&amp;N)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>System size</source>
        <translation>系统字号</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Chat font size</source>
        <translation>对话字号</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Desktop notifications</source>
        <translation>桌面通知</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>Chat &amp;font size:</source>
        <translation>对话字号(&amp;f)：</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>A new language shows after a restart.</source>
        <translation>新语言将在重新启动后生效。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::AttachmentChip</name>
    <message>
        <source>%1 — in /mnt/data for the code</source>
        <translation>%1 — 代码可在 /mnt/data 中使用</translation>
    </message>
    <message>
        <source>Attached file %1</source>
        <translation>附件 %1</translation>
    </message>
    <message>
        <source>Attached file %1, %2</source>
        <translation>附件 %1，%2</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <source>Take %1 off this message</source>
        <translation>从这条消息中移除 %1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::AttachmentPreparer</name>
    <message>
        <source>The model “%1” does not take images, so the message was not sent. Choose a model with vision, or, if this one has it, say so in Settings → Provider → Images. Your text and the images are back in the message box; the images are in /mnt/data for the code either way.</source>
        <translation>模型“%1”不接受图像，因此消息没有发送。请选择支持视觉的模型；如果此模型支持，请在“设置 → 提供商 → 图像”中说明。你的文字和图像已放回消息框；无论如何，图像都在 /mnt/data 中供代码使用。</translation>
    </message>
    <message>
        <source>%1 The message was not sent: remove that image and send again.</source>
        <translation>%1 消息没有发送：请移除该图像后再发送。</translation>
    </message>
    <message>
        <source>The model did not take the images. Sandpiper now sends this conversation to “%1” without them; they stay in the conversation and in /mnt/data. Send again to go on, or choose a model with vision.</source>
        <translation>模型没有接受这些图像。Sandpiper 现在向“%1”发送此对话时不再附带它们；它们仍保留在对话和 /mnt/data 中。请再次发送以继续，或选择支持视觉的模型。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::Attachments</name>
    <message>
        <source>Attach files</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <source>Attach file</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <source>%1 could not be attached: %2</source>
        <translation>无法添加附件 %1：%2</translation>
    </message>
    <message>
        <source>Add image</source>
        <translation>添加图像</translation>
    </message>
    <message>
        <source>%1 is attached as a file, not shown to the model: %2</source>
        <translation>%1 已作为文件附加，没有显示给模型：%2</translation>
    </message>
    <message>
        <source>Paste image</source>
        <translation>粘贴图像</translation>
    </message>
    <message>
        <source>The pasted image could not be saved for sending.</source>
        <translation>无法保存粘贴的图像以供发送。</translation>
    </message>
    <message>
        <source>The pasted image could not be attached: %1</source>
        <translation>无法附加粘贴的图像：%1</translation>
    </message>
    <message>
        <source>Show to the model</source>
        <translation>显示给模型</translation>
    </message>
    <message>
        <source>%1 goes to the model with your next message.</source>
        <translation>%1 将随你的下一条消息发送给模型。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ChartWidget</name>
    <message>
        <source>%1 (%2)</source>
        <comment>axis title and unit</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Line chart</source>
        <translation>折线图</translation>
    </message>
    <message>
        <source>Bar chart</source>
        <translation>柱形图</translation>
    </message>
    <message>
        <source>Horizontal bar chart</source>
        <translation>条形图</translation>
    </message>
    <message>
        <source>Stacked bar chart</source>
        <translation>堆积柱形图</translation>
    </message>
    <message>
        <source>Scatter plot</source>
        <translation>散点图</translation>
    </message>
    <message>
        <source>Area chart</source>
        <translation>面积图</translation>
    </message>
    <message>
        <source>Pie chart</source>
        <translation>饼图</translation>
    </message>
    <message>
        <source>Donut chart</source>
        <translation>圆环图</translation>
    </message>
    <message>
        <source>%1 of %2. Plus and minus zoom, 0 resets the zoom, the menu key offers saving and copying.</source>
        <translation>%1，包含 %2。按加号和减号键缩放，按 0 重置缩放，按菜单键可保存和复制。</translation>
    </message>
    <message>
        <source>Series %1</source>
        <translation>系列 %1</translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <comment>pie slice label: name, percentage</comment>
        <translation>%1 %2%</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Reset Zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Copy Image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>Copy Data as CSV</source>
        <translation>复制数据为 CSV</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>另存为 PNG…</translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation>另存为 SVG…</translation>
    </message>
    <message>
        <source>%1
%2 (%3%)</source>
        <comment>pie slice tooltip: name, value, percentage</comment>
        <translation>%1
%2（%3%）</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>scatter point tooltip: x, y</comment>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>tooltip: x or category, value</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Show Slices</source>
        <translation>显示扇区</translation>
    </message>
    <message>
        <source>Show Series</source>
        <translation>显示系列</translation>
    </message>
    <message>
        <source>chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Save Chart as SVG</source>
        <translation>将图表保存为 SVG</translation>
    </message>
    <message>
        <source>Save Chart as PNG</source>
        <translation>将图表保存为 PNG</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Could Not Save the Chart</source>
        <translation>无法保存图表</translation>
    </message>
    <message>
        <source>The chart could not be saved to %1. Check that the folder exists and is writable.</source>
        <translation>无法将图表保存到 %1。请检查该文件夹是否存在且可写入。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ChatClient</name>
    <message>
        <source>Could not connect to %1: the connection was refused. Is the server running?</source>
        <translation>无法连接到 %1：连接被拒绝。服务器是否正在运行？</translation>
    </message>
    <message>
        <source>The host %1 was not found. Check the base URL and your network.</source>
        <translation>找不到主机 %1。请检查基础 URL 和网络连接。</translation>
    </message>
    <message>
        <source>The secure connection to %1 failed: %2</source>
        <translation>与 %1 的安全连接失败：%2</translation>
    </message>
    <message>
        <source>Network error talking to %1: %2</source>
        <translation>与 %1 通信时出现网络错误：%2</translation>
    </message>
    <message>
        <source>The conversation does not fit the model&apos;s context window (HTTP %1): %2</source>
        <translation>对话超出了模型的上下文窗口（HTTP %1）：%2</translation>
    </message>
    <message>
        <source>The provider refused the request (HTTP %1): %2 Check the API key in Settings.</source>
        <translation>服务商拒绝了请求（HTTP %1）：%2 请在“设置”中检查 API 密钥。</translation>
    </message>
    <message>
        <source>The model &quot;%1&quot; or the endpoint was not found (HTTP 404): %2</source>
        <translation>找不到模型“%1”或端点（HTTP 404）：%2</translation>
    </message>
    <message>
        <source>The provider is rate limiting requests (HTTP 429): %1</source>
        <translation>服务商正在限制请求频率（HTTP 429）：%1</translation>
    </message>
    <message>
        <source>The provider had a server error (HTTP %1): %2</source>
        <translation>服务商出现服务器错误（HTTP %1）：%2</translation>
    </message>
    <message>
        <source>The provider rejected the request (HTTP %1): %2</source>
        <translation>服务商拒绝了请求（HTTP %1）：%2</translation>
    </message>
    <message>
        <source>Available models: %1.</source>
        <translation>可用模型：%1。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>The server did not answer within %1 s.</source>
        <translation>服务器未在 %1 秒内响应。</translation>
    </message>
    <message>
        <source>The answer stopped arriving: nothing came for %1 s.</source>
        <translation>回答中断：已有 %1 秒未收到任何内容。</translation>
    </message>
    <message>
        <source>The server&apos;s answer is not an OpenAI-compatible chat completion: %1</source>
        <translation>服务器的响应不是与 OpenAI 兼容的聊天补全结果：%1</translation>
    </message>
    <message>
        <source>the stream ended before the answer was finished</source>
        <translation>回答尚未完成，数据流就已结束</translation>
    </message>
    <message>
        <source>The connection broke while the answer was streaming: %1</source>
        <translation>流式传输回答时连接中断：%1</translation>
    </message>
    <message>
        <source>The server&apos;s model list is not in the OpenAI format (no &quot;data&quot; array).</source>
        <translation>服务器返回的模型列表不是 OpenAI 格式（缺少“data”数组）。</translation>
    </message>
    <message>
        <source>The server&apos;s stream is not an OpenAI-compatible chat completion: its events are not JSON (the first: &quot;%1&quot;). Is the base URL that of an OpenAI-compatible API?</source>
        <translation>服务器的流不是与 OpenAI 兼容的聊天补全：其事件不是 JSON（第一个：“%1”）。基础 URL 是否指向与 OpenAI 兼容的 API？</translation>
    </message>
    <message>
        <source>The provider stopped the answer with an error: %1</source>
        <translation>服务商以错误中止了回答：%1</translation>
    </message>
    <message>
        <source>The provider stopped the answer with an error (%1): %2</source>
        <translation>服务商以错误中止了回答（%1）：%2</translation>
    </message>
    <message>
        <source>This is usually temporary: Retry in a moment may work.</source>
        <translation>这通常是暂时的：稍后点击“重试”可能会成功。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ChatPage</name>
    <message>
        <source>Show earlier messages</source>
        <translation>显示更早的消息</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>The model is working</source>
        <translation>模型正在工作</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <source>The model is working on the answer</source>
        <translation>模型正在生成回答</translation>
    </message>
    <message>
        <source>Delete this version</source>
        <translation>删除此版本</translation>
    </message>
    <message>
        <source>Switch version</source>
        <translation>切换版本</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ChatView</name>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
</context>
<context>
    <name>Sandpiper::CodeInspector</name>
    <message>
        <source>Edit and run</source>
        <translation>编辑并运行</translation>
    </message>
    <message>
        <source>Restart kernel</source>
        <translation>重启内核</translation>
    </message>
    <message>
        <source>Code inspector</source>
        <translation>代码检查器</translation>
    </message>
    <message>
        <source>Executions</source>
        <translation>执行记录</translation>
    </message>
    <message>
        <source>Executed code</source>
        <translation>已执行的代码</translation>
    </message>
    <message>
        <source>Standard output</source>
        <translation>标准输出</translation>
    </message>
    <message>
        <source>Standard error</source>
        <translation>标准错误</translation>
    </message>
    <message>
        <source>Displayed value</source>
        <translation>显示的值</translation>
    </message>
    <message>
        <source>Execution status</source>
        <translation>执行状态</translation>
    </message>
    <message>
        <source>Edit the code and run it in the same sandbox</source>
        <translation>编辑代码并在同一沙箱中运行</translation>
    </message>
    <message>
        <source>Restart the Python kernel</source>
        <translation>重启 Python 内核</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Errors and warnings</source>
        <translation>错误和警告</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>%1 in %2 s</source>
        <translation>%1，用时 %2 秒</translation>
    </message>
    <message>
        <source>(run by you)</source>
        <translation>（由你运行）</translation>
    </message>
    <message>
        <source>No code has run yet</source>
        <translation>尚未运行任何代码</translation>
    </message>
    <message>
        <source>Code the model runs appears here, with what it printed, its tables and its figures. Ask for something to compute, such as “plot a sine wave”; you can then edit the code and run it again from here.</source>
        <translation>模型运行的代码会显示在这里，连同它的输出、表格和图形。请让模型计算些什么，例如“画一条正弦曲线”；之后可以在这里编辑代码并再次运行。</translation>
    </message>
    <message>
        <source>Choose a run in the list to see its code and what it printed.</source>
        <translation>在列表中选择一次运行，查看其代码和输出。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::Composer</name>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>添加附件…</translation>
    </message>
    <message>
        <source>Network in sandbox</source>
        <translation>沙箱联网</translation>
    </message>
    <message>
        <source>Ask anything. Enter sends, Shift+Enter starts a new line, / offers prompts, Ctrl+V pastes images.</source>
        <translation>随便问。Enter 发送，Shift+Enter 换行，/ 提供提示词，Ctrl+V 粘贴图像。</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Send message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <source>Stop the answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <source>Stop (Esc)</source>
        <translation>停止 (Esc)</translation>
    </message>
    <message>
        <source>Attach files</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <source>Files are copied to the conversation folder, /mnt/data in the sandbox.</source>
        <translation>文件会被复制到对话文件夹，即沙箱中的 /mnt/data。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Allow network access in this conversation&apos;s sandbox</source>
        <translation>允许此对话的沙箱访问网络</translation>
    </message>
    <message>
        <source>Images for the next message</source>
        <translation>下一条消息的图像</translation>
    </message>
    <message>
        <source>Prompts of the MCP servers</source>
        <translation>MCP 服务器的提示模板</translation>
    </message>
    <message>
        <source>/%1 (%2)</source>
        <translation>/%1（%2）</translation>
    </message>
    <message>
        <source>/%1 (%2): %3</source>
        <translation>/%1（%2）：%3</translation>
    </message>
    <message>
        <source>⚠ %1</source>
        <translation>⚠ %1</translation>
    </message>
    <message>
        <source>%1 — click to take it off this message</source>
        <translation>%1 — 点击将其从此消息中移除</translation>
    </message>
    <message>
        <source>Image %1; press to take it off this message</source>
        <translation>图像 %1；按下将其从此消息中移除</translation>
    </message>
    <message>
        <source>Files for the next message</source>
        <translation>下一条消息的文件</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ComposerEditor</name>
    <message>
        <source>The clipboard holds an image in a format Sandpiper cannot read (%1). It reads %2.</source>
        <translation>剪贴板中的图像格式 Sandpiper 无法读取（%1）。它能读取 %2。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ContainerFiles</name>
    <message>
        <source>The files could not be copied from the sandbox: %1</source>
        <translation>无法从沙箱复制文件：%1</translation>
    </message>
    <message>
        <source>The files took longer than %1 s to come from the sandbox; the copy was stopped.</source>
        <translation>从沙箱取回文件超过了 %1 秒；复制已停止。</translation>
    </message>
    <message>
        <source>The files could not be copied into the sandbox: %1</source>
        <translation>无法将文件复制到沙箱：%1</translation>
    </message>
    <message>
        <source>The files took longer than %1 s to reach the sandbox; the copy was stopped.</source>
        <translation>将文件送入沙箱超过了 %1 秒；复制已停止。</translation>
    </message>
    <message>
        <source>The files in the sandbox could not be listed: %1</source>
        <translation>无法列出沙箱中的文件：%1</translation>
    </message>
    <message>
        <source>The files could not be removed from the sandbox: %1</source>
        <translation>无法从沙箱中移除这些文件：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ContainerLauncher</name>
    <message>
        <source>The Docker client (%1) could not be started: is Docker installed?</source>
        <translation>无法启动 Docker 客户端（%1）：是否已安装 Docker？</translation>
    </message>
    <message>
        <source>The Python kernel was killed (exit code 137), most likely because it ran out of memory (the limit is %1).</source>
        <translation>Python 内核被终止（退出代码 137），很可能是因为内存不足（上限为 %1）。</translation>
    </message>
    <message>
        <source>The Python kernel crashed with a segmentation fault (exit code 139).</source>
        <translation>Python 内核因段错误而崩溃（退出代码 139）。</translation>
    </message>
    <message>
        <source>Docker could not start the sandbox: %1</source>
        <translation>Docker 无法启动沙箱：%1</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>退出代码 %1</translation>
    </message>
    <message>
        <source>The Python kernel exited unexpectedly (exit code %1).</source>
        <translation>Python 内核意外退出（退出代码 %1）。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ContextBudget</name>
    <message>
        <source>Ollama does this when its context window is smaller than the request: raise it with OLLAMA_CONTEXT_LENGTH (for example 32768) where the server starts, or with num_ctx in the model&apos;s Modelfile.</source>
        <translation>当 Ollama 的上下文窗口小于请求时会这样做：在启动服务器的地方用 OLLAMA_CONTEXT_LENGTH（例如 32768）调大它，或在模型的 Modelfile 中设置 num_ctx。</translation>
    </message>
    <message>
        <source>LM Studio does this when the model is loaded with a smaller context length than the request: load it with a larger one.</source>
        <translation>当模型加载时的上下文长度小于请求时，LM Studio 会这样做：请用更大的上下文长度加载它。</translation>
    </message>
    <message>
        <source>Raise the server&apos;s context size for this model.</source>
        <translation>请为此模型调大服务器的上下文大小。</translation>
    </message>
    <message>
        <source>The server cut this conversation to %1 tokens without saying so: the model saw only part of a request of about %2 tokens. %3 Or set this model&apos;s context window in Settings. Until then Sandpiper keeps requests within %4 tokens itself and says what it leaves out.</source>
        <translation>服务器在未告知的情况下将此对话截断为 %1 个词元：模型只看到了约 %2 个词元的请求的一部分。%3 或者在设置中设定此模型的上下文窗口。在此之前，Sandpiper 会自行将请求控制在 %4 个词元以内，并说明省略了什么。</translation>
    </message>
    <message>
        <source>Sandpiper left out of the request what it could; what remains (the system prompt, the tool declarations and the last message) is still too long. Give the model a larger context window on the server, or send a shorter message.</source>
        <translation>Sandpiper 已从请求中省略了所有能省略的内容；剩下的部分（系统提示词、工具声明和最后一条消息）仍然太长。请在服务器上为模型提供更大的上下文窗口，或发送更短的消息。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ContextUsageLabel</name>
    <message>
        <source>Context used by this conversation</source>
        <translation>此对话使用的上下文</translation>
    </message>
    <message>
        <source>context %1 / %2</source>
        <translation>上下文 %1 / %2</translation>
    </message>
    <message>
        <source>context %1</source>
        <translation>上下文 %1</translation>
    </message>
    <message>
        <source>%L1 tokens sent and received</source>
        <translation>已发送和接收 %L1 个词元</translation>
    </message>
    <message>
        <source>The provider counted %L1 tokens for this conversation&apos;s requests and answers; every request carries the system prompt, the tools&apos; descriptions and the history again.</source>
        <translation>服务提供方为此对话的请求和回答计了 %L1 个词元；每次请求都会再次携带系统提示、工具说明和历史记录。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationActions</name>
    <message>
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Delete this conversation, its files and its figures? This cannot be undone.</source>
        <translation>要删除此对话及其文件和图像吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Exporting the notebook…</source>
        <translation>正在导出笔记本…</translation>
    </message>
    <message numerus="yes">
        <source>%n code cell(s).</source>
        <translation>
            <numerusform>%n 个代码单元格。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n figure(s) were missing or refused; the notebook names them in their place.</source>
        <translation>
            <numerusform>有 %n 个图形缺失或被拒绝；笔记本在其位置注明了它们的名称。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete “%1”, its files and its figures? This cannot be undone.</source>
        <translation>删除“%1”及其文件和图形？此操作无法撤销。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationItemDelegate</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 处匹配</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationListModel</name>
    <message>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>working</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>new answer</source>
        <translation>新回答</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 (%n match(es))</source>
        <comment>a search hit: title, snippet, count</comment>
        <translation>
            <numerusform>%1：%2（%n 处匹配）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationSession</name>
    <message>
        <source>Wait for the current answer to finish, or stop it, before sending.</source>
        <translation>请等待当前回答完成或将其停止，然后再发送。</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish before running code.</source>
        <translation>请等待当前回答完成后再运行代码。</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish before restoring the variables.</source>
        <translation>请等当前回答结束后再恢复变量。</translation>
    </message>
    <message>
        <source>There is no image %1 in this conversation.</source>
        <translation>此对话中没有图像 %1。</translation>
    </message>
    <message>
        <source>This table cannot be saved from the sandbox.</source>
        <translation>无法从沙箱保存此表格。</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish, or stop it, before resending.</source>
        <translation>请等待当前回答完成或将其停止，然后再重新发送。</translation>
    </message>
    <message>
        <source>There is no question to answer again.</source>
        <translation>没有可以重新回答的问题。</translation>
    </message>
    <message>
        <source>Starting the model on this computer…</source>
        <translation>正在本机上启动模型…</translation>
    </message>
    <message>
        <source>The message is not on the branch shown.</source>
        <translation>该消息不在当前显示的分支上。</translation>
    </message>
    <message>
        <source>Wait for the current answer to finish, or stop it, before asking again.</source>
        <translation>再问之前，请等待当前回答完成或将其停止。</translation>
    </message>
    <message>
        <source>Only a question can be answered again.</source>
        <translation>只有问题才能重新回答。</translation>
    </message>
    <message>
        <source>Stop the answer, or wait for it to finish, before switching to another version.</source>
        <translation>请先停止回答或等待其完成，再切换到其他版本。</translation>
    </message>
    <message>
        <source>The message has no version there.</source>
        <translation>该消息在那里没有版本。</translation>
    </message>
    <message>
        <source>The conversation has no message with the id %1.</source>
        <translation>对话中没有 ID 为 %1 的消息。</translation>
    </message>
    <message>
        <source>The message %1 calls tools; continue from their results instead.</source>
        <translation>消息 %1 调用了工具；请改为从工具结果继续。</translation>
    </message>
    <message>
        <source>Stop the answer, or wait for it to finish, before deleting a version.</source>
        <translation>请先停止回答或等待其完成，再删除版本。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationSidebar</name>
    <message>
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Search conversations (Ctrl+F)</source>
        <translation>搜索对话 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
</context>
<context>
    <name>Sandpiper::DataTableModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>Sandpiper::DataTableView</name>
    <message>
        <source>Save as CSV</source>
        <translation>另存为 CSV</translation>
    </message>
    <message>
        <source>Save as Excel</source>
        <translation>另存为 Excel</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Table rows</source>
        <translation>表格行</translation>
    </message>
    <message>
        <source>Table size</source>
        <translation>表格大小</translation>
    </message>
    <message>
        <source>Saving the table</source>
        <translation>正在保存表格</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the selected cells, or the whole table, as tab-separated text</source>
        <translation>将所选单元格或整个表格复制为制表符分隔的文本</translation>
    </message>
    <message>
        <source>Save the whole table as a CSV file</source>
        <translation>将整个表格保存为 CSV 文件</translation>
    </message>
    <message>
        <source>Save the whole table as an Excel file</source>
        <translation>将整个表格保存为 Excel 文件</translation>
    </message>
    <message>
        <source>Only tables of pandas frames can be saved from the sandbox.</source>
        <translation>只有 pandas 数据框的表格才能从沙箱保存。</translation>
    </message>
    <message>
        <source>Showing %1 of %2 rows</source>
        <translation>显示 %2 行中的 %1 行</translation>
    </message>
    <message numerus="yes">
        <source>%n rows</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 columns</source>
        <translation>%2 列中的 %1 列</translation>
    </message>
    <message numerus="yes">
        <source>%n columns</source>
        <translation>
            <numerusform>%n 列</numerusform>
        </translation>
    </message>
    <message>
        <source>The sandbox writes the whole table…</source>
        <translation>沙箱正在写入整个表格…</translation>
    </message>
    <message>
        <source>The table could not be saved: %1</source>
        <translation>无法保存表格：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::DockerCli</name>
    <message>
        <source>“%1” is neither a docker context&apos;s name nor an engine&apos;s address (ssh://user@host, tcp://host:2376, unix:///path/to/docker.sock).</source>
        <translation>“%1”既不是 docker 上下文的名称，也不是引擎的地址（ssh://user@host、tcp://host:2376、unix:///path/to/docker.sock）。</translation>
    </message>
    <message>
        <source>“%1” is not an engine&apos;s address: Docker takes ssh://user@host, tcp://host:2376 or unix:///path/to/docker.sock.</source>
        <translation>“%1”不是引擎的地址：Docker 接受 ssh://user@host、tcp://host:2376 或 unix:///path/to/docker.sock。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::EngineFeatures</name>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>processes</source>
        <translation>进程数</translation>
    </message>
    <message>
        <source>the kernel&apos;s cgroups lack the controllers</source>
        <translation>内核的 cgroup 缺少相应的控制器</translation>
    </message>
    <message>
        <source>a rootless engine on cgroup v1 gets no cgroup controllers</source>
        <translation>cgroup v1 上的无 root 引擎得不到任何 cgroup 控制器</translation>
    </message>
    <message>
        <source>the cgroup controllers are not delegated to this user</source>
        <translation>cgroup 控制器没有委派给此用户</translation>
    </message>
    <message>
        <source>%1, rootless</source>
        <translation>%1，无 root</translation>
    </message>
    <message>
        <source>%1, no limits on %2: %3</source>
        <translation>%1，不限制%2：%3</translation>
    </message>
    <message>
        <source>This engine does not enforce the sandbox&apos;s limits on %1 (%2): code in the sandbox is not held to them.</source>
        <translation>此引擎不执行沙箱对%1的限制（%2）：沙箱中的代码不受这些限制约束。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::EngineFiles</name>
    <message>
        <source>“%1” stayed in the sandbox on the Docker engine, and that sandbox has stopped since: the file is gone. Run the code again to make it again.</source>
        <translation>“%1”留在 Docker 引擎上的沙箱中，而该沙箱之后已停止：文件已丢失。请再次运行代码以重新生成它。</translation>
    </message>
    <message>
        <source>the sandbox that kept it is gone.</source>
        <translation>保存它的沙箱已不存在。</translation>
    </message>
    <message>
        <source>it is no longer in the sandbox.</source>
        <translation>它已不在沙箱中。</translation>
    </message>
    <message>
        <source>“%1” could not be fetched from the Docker engine: %2</source>
        <translation>无法从 Docker 引擎取回“%1”：%2</translation>
    </message>
</context>
<context>
    <name>Sandpiper::EngineFilesOnQuit</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) that the code made (%1 in all) are only in the sandbox on the Docker engine, and are lost when Sandpiper quits:</source>
        <translation>
            <numerusform>代码生成的 %n 个文件（共 %1）只存在于 Docker 引擎上的沙箱中，Sandpiper 退出时将会丢失：</numerusform>
        </translation>
    </message>
    <message>
        <source>Files on the Docker Engine</source>
        <translation>Docker 引擎上的文件</translation>
    </message>
    <message>
        <source>Files on the Docker engine</source>
        <translation>Docker 引擎上的文件</translation>
    </message>
    <message>
        <source>&amp;Copy Here, Then Quit</source>
        <translation>复制到本机后退出(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit Without Them</source>
        <translation>不保留文件直接退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Copying the files from the Docker engine…</source>
        <translation>正在从 Docker 引擎复制文件…</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Copying Files</source>
        <translation>正在复制文件</translation>
    </message>
    <message>
        <source>Copying the files from the Docker engine</source>
        <translation>正在从 Docker 引擎复制文件</translation>
    </message>
    <message>
        <source>Copying “%1” (%2) from the Docker engine…</source>
        <translation>正在从 Docker 引擎复制“%1”（%2）…</translation>
    </message>
    <message>
        <source>Some files could not be copied here:</source>
        <translation>有些文件无法复制到本机：</translation>
    </message>
    <message>
        <source>Files not copied</source>
        <translation>未复制的文件</translation>
    </message>
    <message>
        <source>&amp;Quit Anyway</source>
        <translation>仍然退出(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>Sandpiper::EngineService</name>
    <message>
        <source>%1; no trivial execution ran (is the image there?).</source>
        <translation>%1；没有运行简单执行（镜像在吗？）。</translation>
    </message>
    <message>
        <source>%1; a trivial execution in a fresh sandbox takes %2 ms.</source>
        <translation>%1；在新沙箱中运行一次简单执行需要 %2 毫秒。</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message>
        <source>Sending %1 from this machine to %2 (docker save | docker load)…</source>
        <translation>正在将 %1 从本机发送到 %2（docker save | docker load）…</translation>
    </message>
    <message>
        <source>The image %1 was sent to %2 and is ready.</source>
        <translation>镜像 %1 已发送到 %2，可以使用。</translation>
    </message>
    <message>
        <source>Not sent: %1 Building it there instead.</source>
        <translation>未发送：%1 改为在那里构建。</translation>
    </message>
    <message>
        <source>No sandbox folder with a Dockerfile was found next to Sandpiper (../share/sandpiper/sandbox). Reinstall Sandpiper or build the image by hand.</source>
        <translation>在 Sandpiper 旁边没有找到包含 Dockerfile 的沙箱文件夹（../share/sandpiper/sandbox）。请重新安装 Sandpiper，或手动构建镜像。</translation>
    </message>
    <message>
        <source>Building %1 from %2 on %3…</source>
        <translation>正在 %3 上从 %2 构建 %1…</translation>
    </message>
    <message>
        <source>The image %1 is ready.</source>
        <translation>镜像 %1 已就绪。</translation>
    </message>
    <message>
        <source>The build failed: %1</source>
        <translation>构建失败：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::EngineStatus</name>
    <message>
        <source>context %1</source>
        <translation>上下文 %1</translation>
    </message>
    <message>
        <source>the default engine</source>
        <translation>默认引擎</translation>
    </message>
    <message>
        <source>%1: does not answer (%2)</source>
        <translation>%1：没有响应（%2）</translation>
    </message>
    <message>
        <source>remote</source>
        <translation>远程</translation>
    </message>
    <message>
        <source>on this machine</source>
        <translation>在本机上</translation>
    </message>
    <message>
        <source>local or remote: not known yet</source>
        <translation>本地还是远程：尚不清楚</translation>
    </message>
    <message>
        <source>%1: %2, answers in %3 ms</source>
        <translation>%1：%2，响应时间 %3 毫秒</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1; a run in a running sandbox there pays %2 ms on its kernel&apos;s channel</source>
        <translation>%1；在那里运行中的沙箱里执行一次代码，其内核通道要花费 %2 毫秒</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ExecutionModel</name>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>已崩溃</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>running… · %1
%2</source>
        <translation>正在运行… · %1
%2</translation>
    </message>
    <message>
        <source>%1 · %2 s · %3
%4</source>
        <translation>%1 · %2 秒 · %3
%4</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ExecutionResultView</name>
    <message>
        <source>And %1 more figures that were not kept: too many for one run.</source>
        <translation>另有 %1 张图未保留：一次运行中太多了。</translation>
    </message>
    <message>
        <source>And %1 more files; they are in the conversation&apos;s folder.</source>
        <translation>另有 %1 个文件；它们在对话的文件夹中。</translation>
    </message>
    <message>
        <source>stopped by Sandpiper</source>
        <translation>已被 Sandpiper 停止</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>已超时</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Sandpiper refused what the sandbox reported:</source>
        <translation>Sandpiper 拒绝了沙箱报告的以下内容：</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>注意</translation>
    </message>
</context>
<context>
    <name>Sandpiper::FigureView</name>
    <message>
        <source>⚠ The figure was not shown. %1</source>
        <translation>⚠ 未显示该图。%1</translation>
    </message>
    <message>
        <source>Figure not shown</source>
        <translation>未显示的图</translation>
    </message>
    <message>
        <source>Figure %1</source>
        <translation>图像 %1</translation>
    </message>
    <message>
        <source>Click to open at full size; right-click to save, copy or show it to the model.</source>
        <translation>点击以原始大小打开；右键点击可保存、复制或显示给模型。</translation>
    </message>
    <message>
        <source>Open at full size</source>
        <translation>以原始尺寸打开</translation>
    </message>
    <message>
        <source>Save image as…</source>
        <translation>图像另存为…</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>Show to the model</source>
        <translation>显示给模型</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>图</translation>
    </message>
    <message>
        <source>The figure cannot be used. %1</source>
        <translation>无法使用该图。%1</translation>
    </message>
    <message>
        <source>Figure at full size</source>
        <translation>原始尺寸图像</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
</context>
<context>
    <name>Sandpiper::FirstUseProbe</name>
    <message>
        <source>&amp;Test it</source>
        <translation>测试(&amp;T)</translation>
    </message>
    <message>
        <source>Not &amp;now</source>
        <translation>暂不(&amp;n)</translation>
    </message>
    <message>
        <source>Ne&amp;ver ask</source>
        <translation>不再询问(&amp;v)</translation>
    </message>
    <message>
        <source>Test the model</source>
        <translation>测试模型</translation>
    </message>
    <message>
        <source>What testing the model does</source>
        <translation>测试模型会做什么</translation>
    </message>
    <message>
        <source>Test what the model does</source>
        <translation>测试模型的实际能力</translation>
    </message>
    <message>
        <source>Not now: ask again the next time Sandpiper starts</source>
        <translation>暂不测试：下次启动 Sandpiper 时再询问</translation>
    </message>
    <message>
        <source>Never offer to test a model</source>
        <translation>不再提议测试模型</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <source>%1 could not be tested: %2</source>
        <translation>无法测试 %1：%2</translation>
    </message>
    <message>
        <source>%1: %2.</source>
        <translation>%1：%2。</translation>
    </message>
    <message>
        <source>%1: %2. Set: %3.</source>
        <translation>%1：%2。已设置：%3。</translation>
    </message>
    <message>
        <source>Asks %1 for a plain answer, a tool call, two parallel calls, an answer after a tool result and, where it fits, a long prompt and an image; the report card says whether it calls tools natively or in text, where its reasoning arrives, how large its context window really is and how fast it answers, and sets the provider&apos;s switches to match.</source>
        <translation>向 %1 请求一个普通回答、一次工具调用、两个并行调用、一个工具结果之后的回答，并在合适时发送一个长提示词和一张图片；测试报告会说明它是以原生方式还是以文本调用工具、推理内容出现在哪里、上下文窗口实际有多大以及回答有多快，并相应地设置服务商的开关。</translation>
    </message>
    <message>
        <source>Test what %1 really does? A few short requests (a few thousand tokens).</source>
        <translation>要测试 %1 的实际能力吗？只需几个简短的请求（几千个词元）。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::GgufHeader</name>
    <message>
        <source>%1 needs %2 bytes and only %3 are left</source>
        <translation>%1 需要 %2 字节，但只剩 %3 字节</translation>
    </message>
    <message>
        <source>%1 is %2 bytes long and only %3 are left</source>
        <translation>%1 长 %2 字节，但只剩 %3 字节</translation>
    </message>
    <message>
        <source>%1 is %2 bytes long, more than the %3 such a text can be</source>
        <translation>%1 长 %2 字节，超过了此类文本最多 %3 字节的上限</translation>
    </message>
    <message>
        <source>it claims %1 %2, more than its remaining %3 bytes can hold</source>
        <translation>它声称有 %1 个%2，超出了剩余 %3 字节所能容纳的数量</translation>
    </message>
    <message>
        <source>The GGUF file is cut short: it ends at byte %1, inside its header. A download that stopped part way leaves such a file; download it again.</source>
        <translation>GGUF 文件不完整：它在第 %1 字节处结束，仍在文件头之内。下载中途停止会留下这样的文件；请重新下载。</translation>
    </message>
    <message>
        <source>the value of %1</source>
        <translation>%1 的值</translation>
    </message>
    <message>
        <source>%1 nests arrays deeper than %2</source>
        <translation>%1 的数组嵌套深度超过 %2 层</translation>
    </message>
    <message>
        <source>entries in %1</source>
        <translation>%1 中的条目</translation>
    </message>
    <message>
        <source>%1 holds values of an unknown type (%2)</source>
        <translation>%1 包含未知类型（%2）的值</translation>
    </message>
    <message>
        <source>%1 has a value of an unknown type (%2)</source>
        <translation>%1 的值类型未知（%2）</translation>
    </message>
    <message>
        <source>Cannot open %1: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <source>This is not a GGUF model file: it does not begin with &quot;GGUF&quot;.</source>
        <translation>这不是 GGUF 模型文件：它不是以“GGUF”开头。</translation>
    </message>
    <message>
        <source>This GGUF file is of version %1; llama.cpp reads versions 2 and 3.</source>
        <translation>此 GGUF 文件的版本为 %1；llama.cpp 只能读取版本 2 和 3。</translation>
    </message>
    <message>
        <source>metadata values</source>
        <translation>元数据值</translation>
    </message>
    <message>
        <source>a key</source>
        <translation>一个键</translation>
    </message>
    <message>
        <source>tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>tensor %1</source>
        <translation>张量 %1</translation>
    </message>
    <message>
        <source>%1 has %2 dimensions (at most %3)</source>
        <translation>%1 有 %2 个维度（最多 %3 个）</translation>
    </message>
    <message>
        <source>%1 has more elements than can be counted</source>
        <translation>%1 的元素多到无法计数</translation>
    </message>
    <message>
        <source>its tensors have more elements than can be counted</source>
        <translation>其张量的元素多到无法计数</translation>
    </message>
    <message>
        <source>%1 lies beyond any file</source>
        <translation>%1 超出了所有文件的范围</translation>
    </message>
    <message>
        <source>The GGUF file is cut short: its weights need %1 bytes after the header and %2 are there. A download that stopped part way leaves such a file; download it again.</source>
        <translation>GGUF 文件不完整：其权重在文件头之后需要 %1 字节，而实际只有 %2 字节。下载中途停止会留下这样的文件；请重新下载。</translation>
    </message>
    <message>
        <source>The GGUF header is cut short or damaged: %1. This file cannot be run; download the model again, or remove the file.</source>
        <translation>GGUF 文件头不完整或已损坏：%1。此文件无法运行；请重新下载模型，或删除该文件。</translation>
    </message>
    <message>
        <source>The GGUF header is cut short or damaged: its alignment %1 is not a power of two. This file cannot be run; download the model again, or remove the file.</source>
        <translation>GGUF 文件头不完整或已损坏：其对齐值 %1 不是 2 的幂。此文件无法运行；请重新下载模型，或删除该文件。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::HubClient</name>
    <message>
        <source>The hub refused the Hugging Face token for %1: the token may have expired, or the model&apos;s terms were not accepted on its page at the hub yet.</source>
        <translation>Hub 拒绝了用于 %1 的 Hugging Face 令牌：令牌可能已过期，或尚未在 Hub 上该模型的页面中接受其条款。</translation>
    </message>
    <message>
        <source>Access to %1 needs a Hugging Face token: it is gated or private. Accept the model&apos;s terms on its page at the hub, then give Sandpiper a token.</source>
        <translation>访问 %1 需要 Hugging Face 令牌：它是受限或私有的。请在 Hub 上该模型的页面中接受其条款，然后向 Sandpiper 提供令牌。</translation>
    </message>
    <message>
        <source>The hub has no %1.</source>
        <translation>Hub 上没有 %1。</translation>
    </message>
    <message>
        <source>The hub refuses more requests for now (too many); try again in a few minutes.</source>
        <translation>Hub 暂时拒绝更多请求（请求过多）；请几分钟后重试。</translation>
    </message>
    <message>
        <source>The hub answered %1 for %2.</source>
        <translation>Hub 对 %2 的回应是 %1。</translation>
    </message>
    <message>
        <source>It said: %1</source>
        <translation>它说：%1</translation>
    </message>
    <message>
        <source>The Hugging Face hub at %1 could not be reached: %2.</source>
        <translation>无法连接位于 %1 的 Hugging Face Hub：%2。</translation>
    </message>
    <message>
        <source>search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>The hub&apos;s search answer is not the list of repositories it should be.</source>
        <translation>Hub 返回的搜索结果不是应有的仓库列表。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not the name of a repository of the hub (owner/name).</source>
        <translation>“%1”不是 Hub 上的仓库名称（owner/name）。</translation>
    </message>
    <message>
        <source>repository %1</source>
        <translation>仓库 %1</translation>
    </message>
    <message>
        <source>The hub&apos;s list of the files of %1 is not the list it should be.</source>
        <translation>Hub 给出的 %1 文件列表不是应有的列表。</translation>
    </message>
    <message>
        <source>The repository %1 has no GGUF file.</source>
        <translation>仓库 %1 中没有 GGUF 文件。</translation>
    </message>
    <message>
        <source>it has no complete GGUF model</source>
        <translation>其中没有完整的 GGUF 模型</translation>
    </message>
    <message>
        <source>it has no model quantized as %1 (it has %2)</source>
        <translation>其中没有以 %1 量化的模型（它有 %2）</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ImageManager</name>
    <message>
        <source>There is no Dockerfile in %1.</source>
        <translation>%1 中没有 Dockerfile。</translation>
    </message>
    <message>
        <source>The Docker client could not be started: is Docker installed?</source>
        <translation>无法启动 Docker 客户端：是否已安装 Docker？</translation>
    </message>
    <message>
        <source>Building the image took longer than an hour and was stopped.</source>
        <translation>构建镜像耗时超过一小时，已被停止。</translation>
    </message>
    <message>
        <source>Building the image failed: %1</source>
        <translation>构建镜像失败：%1</translation>
    </message>
    <message>
        <source>The image %1 is not on this machine either, so it cannot be sent; build it instead.</source>
        <translation>本机上也没有镜像 %1，因此无法发送；请改为构建它。</translation>
    </message>
    <message>
        <source>Sending the image: %1 of %2</source>
        <translation>正在发送镜像：%1 / %2</translation>
    </message>
    <message>
        <source>Sending the image took longer than an hour and was stopped.</source>
        <translation>发送镜像超过了一小时，已停止。</translation>
    </message>
    <message>
        <source>Sending the image failed: %1</source>
        <translation>发送镜像失败：%1</translation>
    </message>
    <message>
        <source>The image was sent: %1.</source>
        <translation>镜像已发送：%1。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::KernelProtocol</name>
    <message>
        <source>The sandbox sent a message of %1, more than the %2 a message may have; it was ignored.</source>
        <translation>沙箱发送了一条 %1 的消息，超过了单条消息 %2 的上限；已忽略。</translation>
    </message>
    <message>
        <source>pip could not download packages: this conversation&apos;s sandbox has no network access. Allow it with the &quot;Network in sandbox&quot; switch below the message box.</source>
        <translation>pip 无法下载软件包：此对话的沙箱没有网络访问权限。请用消息框下方的“沙箱联网”开关允许访问。</translation>
    </message>
    <message>
        <source>More new files than are listed were written; not checked or listed: %1.</source>
        <translation>写入的新文件多于列出的数量；未检查也未列出：%1。</translation>
    </message>
    <message>
        <source>Lines from the sandbox that are not valid messages (JSON objects in UTF-8) were ignored: %1.</source>
        <translation>来自沙箱的无效消息行（不是 UTF-8 编码的 JSON 对象）已忽略：%1。</translation>
    </message>
    <message>
        <source>Events from the sandbox for requests that are not running were ignored: %1.</source>
        <translation>来自沙箱、针对未在运行的请求的事件已忽略：%1。</translation>
    </message>
    <message>
        <source>Further refusals, not listed: %1.</source>
        <translation>其他未列出的拒绝：%1。</translation>
    </message>
    <message numerus="yes">
        <source>%n more tables were shown than are kept (%1 per run).</source>
        <translation>
            <numerusform>显示的表格比保留的多 %n 个（每次运行保留 %1 个）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::KernelRestore</name>
    <message>
        <source>opens a file for writing</source>
        <translation>以写入方式打开文件</translation>
    </message>
    <message>
        <source>saves a table to a file</source>
        <translation>将表格保存到文件</translation>
    </message>
    <message>
        <source>saves a figure to a file</source>
        <translation>将图形保存到文件</translation>
    </message>
    <message>
        <source>saves, dumps, writes or deletes files</source>
        <translation>保存、转储、写入或删除文件</translation>
    </message>
    <message>
        <source>saves an array to a file</source>
        <translation>将数组保存到文件</translation>
    </message>
    <message>
        <source>copies, archives or runs programs</source>
        <translation>复制、归档或运行程序</translation>
    </message>
    <message>
        <source>changes files through os</source>
        <translation>通过 os 修改文件</translation>
    </message>
    <message>
        <source>runs a shell command or pip</source>
        <translation>运行 shell 命令或 pip</translation>
    </message>
    <message numerus="yes">
        <source>it changed %1 and %n more file(s)</source>
        <translation>
            <numerusform>它修改了 %1 及另外 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>it changed %1</source>
        <translation>它修改了 %1</translation>
    </message>
    <message>
        <source>its code %1</source>
        <translation>它的代码%1</translation>
    </message>
    <message>
        <source>Sandpiper was started again or the conversation was reopened</source>
        <translation>Sandpiper 已重新启动或对话已重新打开</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>cell %1 (%2)</source>
        <translation>单元格 %1（%2）</translation>
    </message>
    <message>
        <source>it timed out</source>
        <translation>它超时了</translation>
    </message>
    <message>
        <source>it was interrupted</source>
        <translation>它被中断了</translation>
    </message>
    <message>
        <source>the kernel died (%1)</source>
        <translation>内核已终止（%1）</translation>
    </message>
    <message>
        <source>the sandbox is unavailable (%1)</source>
        <translation>沙箱不可用（%1）</translation>
    </message>
    <message>
        <source>Restoring the variables stopped after %1 of %2 cells.</source>
        <translation>恢复变量在 %2 个单元格中的第 %1 个之后停止。</translation>
    </message>
    <message>
        <source>The variables were restored: %1 of %2 cells ran again.</source>
        <translation>变量已恢复：%2 个单元格中有 %1 个重新运行。</translation>
    </message>
    <message>
        <source>Failed on replay: %1.</source>
        <translation>重放时失败：%1。</translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s) that write files were skipped.</source>
        <translation>
            <numerusform>跳过了 %n 个写入文件的单元格。</numerusform>
        </translation>
    </message>
    <message>
        <source>the conversation moved to another branch</source>
        <translation>对话已切换到另一个分支</translation>
    </message>
    <message>
        <source>The sandbox is on this branch: a fresh kernel, since this branch ran no code before.</source>
        <translation>沙箱已同步到此分支：由于此分支之前没有运行过代码，使用的是全新的内核。</translation>
    </message>
    <message>
        <source>Bringing the sandbox to this branch stopped after %1 of %2 cells.</source>
        <translation>将沙箱同步到此分支的过程在 %2 个单元格中的第 %1 个之后停止。</translation>
    </message>
    <message>
        <source>The sandbox is on this branch: %1 of %2 cells ran again.</source>
        <translation>沙箱已同步到此分支：%2 个单元格中有 %1 个重新运行。</translation>
    </message>
    <message>
        <source>The files in the sandbox&apos;s folder are as this branch left them.</source>
        <translation>沙箱文件夹中的文件已恢复为此分支留下时的状态。</translation>
    </message>
    <message>
        <source>The files could not be put back as this branch left them: %1</source>
        <translation>无法将文件恢复为此分支留下时的状态：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::KernelRestoreBar</name>
    <message>
        <source>&amp;Restore variables</source>
        <translation>恢复变量(&amp;R)</translation>
    </message>
    <message>
        <source>Not &amp;now</source>
        <translation>暂不(&amp;n)</translation>
    </message>
    <message>
        <source>S&amp;top restoring</source>
        <translation>停止恢复(&amp;t)</translation>
    </message>
    <message>
        <source>Restore variables</source>
        <translation>恢复变量</translation>
    </message>
    <message>
        <source>Kernel state</source>
        <translation>内核状态</translation>
    </message>
    <message>
        <source>Restoring variables</source>
        <translation>正在恢复变量</translation>
    </message>
    <message>
        <source>Do not restore the variables now</source>
        <translation>现在不恢复变量</translation>
    </message>
    <message>
        <source>Stop restoring the variables</source>
        <translation>停止恢复变量</translation>
    </message>
    <message>
        <source>Restoring the variables…</source>
        <translation>正在恢复变量…</translation>
    </message>
    <message>
        <source>Restoring the variables: %1 (%2 of %3)</source>
        <translation>正在恢复变量：%1（第 %2 个，共 %3 个）</translation>
    </message>
    <message numerus="yes">
        <source>Python&apos;s variables are gone (%1). Running the %n earlier successful cell(s) again brings them back.</source>
        <translation>
            <numerusform>Python 的变量已丢失（%1）。重新运行之前成功的 %n 个单元格即可找回它们。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of the cells write files in /mnt/data. Running them again may overwrite or duplicate those files.</source>
        <translation>
            <numerusform>其中 %n 个单元格会向 /mnt/data 写入文件。再次运行它们可能会覆盖或重复这些文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Skip those cells</source>
        <translation>跳过这些单元格(&amp;S)</translation>
    </message>
    <message>
        <source>Run &amp;all again</source>
        <translation>全部重新运行(&amp;a)</translation>
    </message>
    <message>
        <source>&amp;Bring to this branch</source>
        <translation>同步到此分支(&amp;B)</translation>
    </message>
    <message>
        <source>Bring the sandbox to this branch</source>
        <translation>将沙箱同步到此分支</translation>
    </message>
    <message>
        <source>Continue &amp;without</source>
        <translation>不同步，直接继续(&amp;w)</translation>
    </message>
    <message>
        <source>Continue without bringing the sandbox to this branch</source>
        <translation>不将沙箱同步到此分支，直接继续</translation>
    </message>
    <message>
        <source>S&amp;top and continue without</source>
        <translation>停止并直接继续(&amp;t)</translation>
    </message>
    <message>
        <source>Stop bringing the sandbox to this branch</source>
        <translation>停止将沙箱同步到此分支</translation>
    </message>
    <message>
        <source>Bringing the sandbox to this branch</source>
        <translation>正在将沙箱同步到此分支</translation>
    </message>
    <message>
        <source>Bringing the sandbox to this branch…</source>
        <translation>正在将沙箱同步到此分支…</translation>
    </message>
    <message numerus="yes">
        <source>Python still holds another branch&apos;s variables. Running %n cell(s) of this branch again brings the sandbox here.</source>
        <translation>
            <numerusform>Python 中仍是另一个分支的变量。重新运行此分支的 %n 个单元格即可将沙箱同步到这里。</numerusform>
        </translation>
    </message>
    <message>
        <source>The sandbox may reach the network: those cells may act outside it again.</source>
        <translation>沙箱可以访问网络：这些单元格可能会再次对沙箱之外产生影响。</translation>
    </message>
    <message>
        <source>Bringing the sandbox to this branch, %1 of %2: %3</source>
        <translation>正在将沙箱同步到此分支，第 %1 个，共 %2 个：%3</translation>
    </message>
    <message numerus="yes">
        <source>Bringing the sandbox to this branch stopped at %1. Going on runs the %n cell(s) after it.</source>
        <translation>
            <numerusform>同步到此分支时停在了 %1。继续将运行其后的 %n 个单元格。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::KernelRestorer</name>
    <message>
        <source>the kernel had stopped</source>
        <translation>内核已停止</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>Sandpiper::LocalModelHost</name>
    <message>
        <source>There is no GGUF model on this computer yet: download one in Settings › Models, or put one in %1.</source>
        <translation>本机上还没有 GGUF 模型：请在“设置 › 模型”中下载一个，或将其放入 %1。</translation>
    </message>
    <message>
        <source>The model &quot;%1&quot; is not on this computer (any more): choose one of Settings › Models.</source>
        <translation>模型“%1”已不在本机上：请在“设置 › 模型”中选择一个。</translation>
    </message>
    <message numerus="yes">
        <source>There are %n models on this computer: choose the one to run.</source>
        <translation>
            <numerusform>本机上有 %n 个模型：请选择要运行的一个。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 cannot be run: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>The download was closed.</source>
        <translation>下载已关闭。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Another model was chosen: %1 runs now.</source>
        <translation>已选择另一个模型：现在运行的是 %1。</translation>
    </message>
    <message>
        <source>The model on this computer was closed.</source>
        <translation>本机上的模型已关闭。</translation>
    </message>
    <message>
        <source>No llama-server was found to run a model on this computer: press “Get llama-server for Docker” in Settings › Models, install llama.cpp&apos;s server (llama-server) from your distribution, or set its path there.</source>
        <translation>找不到可在本机上运行模型的 llama-server：请在“设置 › 模型”中点击“为 Docker 获取 llama-server”，从你的发行版安装 llama.cpp 的服务器（llama-server），或在那里指定其路径。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::LocalModelStatus</name>
    <message>
        <source>No program here opens the log; it is %1</source>
        <translation>此处没有程序能打开日志；日志位于 %1</translation>
    </message>
    <message>
        <source>The model on this computer</source>
        <translation>本机上的模型</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Open the log of the model on this computer</source>
        <translation>打开本机模型的日志</translation>
    </message>
    <message>
        <source>Opens llama-server&apos;s log: what it loaded, with which settings, and why it stopped.</source>
        <translation>打开 llama-server 的日志：它加载了什么、使用了哪些设置，以及它为何停止。</translation>
    </message>
    <message>
        <source>The model being downloaded</source>
        <translation>正在下载的模型</translation>
    </message>
    <message>
        <source>Opens Settings › Models, where the download can be paused, resumed or canceled.</source>
        <translation>打开“设置 › 模型”，可在其中暂停、继续或取消下载。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::LocalRunner</name>
    <message numerus="yes">
        <source>The local model was stopped after %n minute(s) without use; it starts again with the next message.</source>
        <translation>
            <numerusform>本地模型闲置 %n 分钟后已停止；发送下一条消息时会重新启动。</numerusform>
        </translation>
    </message>
    <message>
        <source>The local model was closed.</source>
        <translation>本地模型已关闭。</translation>
    </message>
    <message>
        <source>llama-server could not be started (%1): %2.</source>
        <translation>无法启动 llama-server（%1）：%2。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>%1 did not finish loading within %2 s.</source>
        <translation>%1 未能在 %2 秒内加载完成。</translation>
    </message>
    <message>
        <source>%1 is ready (loaded in %2 s).</source>
        <translation>%1 已就绪（加载用时 %2 秒）。</translation>
    </message>
    <message>
        <source>Loading %1… %2 s</source>
        <translation>正在加载 %1… %2 秒</translation>
    </message>
    <message>
        <source>it was killed or crashed</source>
        <translation>它被终止或崩溃了</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>退出代码 %1</translation>
    </message>
    <message>
        <source>The local model&apos;s server stopped (%1); starting it again.</source>
        <translation>本地模型的服务器已停止（%1）；正在重新启动。</translation>
    </message>
    <message>
        <source>The local model&apos;s server stopped again (%1); it starts with the next message.</source>
        <translation>本地模型的服务器再次停止（%1）；将在下一条消息时启动。</translation>
    </message>
    <message>
        <source>llama-server stopped while loading %1 (%2).</source>
        <translation>llama-server 在加载 %1 时停止了（%2）。</translation>
    </message>
    <message>
        <source>The model does not fit in this computer&apos;s memory: choose a smaller quantization or a smaller context.</source>
        <translation>此计算机的内存装不下该模型：请选择更小的量化版本或更小的上下文。</translation>
    </message>
    <message>
        <source>llama-server could not read the model file.</source>
        <translation>llama-server 无法读取模型文件。</translation>
    </message>
    <message>
        <source>The end of its log (%1):</source>
        <translation>其日志的末尾（%1）：</translation>
    </message>
    <message>
        <source>llama-server in a container (image %1)</source>
        <translation>容器中的 llama-server（镜像 %1）</translation>
    </message>
    <message>
        <source>llama-server at %1</source>
        <translation>位于 %1 的 llama-server</translation>
    </message>
    <message>
        <source>no GPU found on this computer</source>
        <translation>本机上未找到 GPU</translation>
    </message>
    <message>
        <source>all layers on %1 (%2, %3 MiB free)</source>
        <translation>所有层都放在 %1 上（%2，%3 MiB 可用）</translation>
    </message>
    <message>
        <source>on the processor: llama-server lists no GPU (%1)</source>
        <translation>在 CPU 上运行：llama-server 未列出任何 GPU（%1）</translation>
    </message>
    <message>
        <source>on the processor: %1 (%2)</source>
        <translation>在 CPU 上运行：%1（%2）</translation>
    </message>
    <message>
        <source>No llama-server was found to run the model: press “Get llama-server for Docker” in Settings › Models, install llama.cpp&apos;s server (llama-server) from your distribution, or set its path there.</source>
        <translation>找不到用于运行模型的 llama-server：请在“设置 › 模型”中点击“为 Docker 获取 llama-server”，从你的发行版安装 llama.cpp 的服务器（llama-server），或在那里指定其路径。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MainWindow</name>
    <message>
        <source>Sandpiper</source>
        <translation>Sandpiper</translation>
    </message>
    <message>
        <source>Code inspector</source>
        <translation>代码检查器</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Provider and model</source>
        <translation>服务商和模型</translation>
    </message>
    <message>
        <source>Network in sandbox</source>
        <translation>沙箱联网</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>导出为 Markdown(&amp;M)…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>导出为 JSON(&amp;J)…</translation>
    </message>
    <message>
        <source>Export as note&amp;book…</source>
        <translation>导出为笔记本(&amp;b)…</translation>
    </message>
    <message>
        <source>&amp;Import conversation…</source>
        <translation>导入对话(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>搜索对话(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Copy last answer</source>
        <translation>复制最后一条回答(&amp;C)</translation>
    </message>
    <message>
        <source>Focus the &amp;message box</source>
        <translation>聚焦到消息框(&amp;m)</translation>
    </message>
    <message>
        <source>Se&amp;ttings…</source>
        <translation>设置(&amp;t)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Code &amp;inspector</source>
        <translation>代码检查器(&amp;i)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Sandpiper</source>
        <translation>关于 Sandpiper(&amp;A)</translation>
    </message>
    <message>
        <source>Open conversation</source>
        <translation>打开对话</translation>
    </message>
    <message>
        <source>%1 — Sandpiper</source>
        <translation>%1 — Sandpiper</translation>
    </message>
    <message>
        <source>The last answer was copied.</source>
        <translation>已复制最后一条回答。</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>&amp;Conversations</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Set up a provider…</source>
        <translation>设置服务提供方(&amp;S)…</translation>
    </message>
    <message>
        <source>Answers can come from a model on this computer or from a provider on the internet.</source>
        <translation>回答可以来自本机上的模型，也可以来自互联网上的服务提供方。</translation>
    </message>
    <message>
        <source>Not sent: no provider can answer. %1</source>
        <translation>未发送：没有可以回答的服务提供方。%1</translation>
    </message>
    <message>
        <source>Tested: %1</source>
        <translation>已测试：%1</translation>
    </message>
    <message>
        <source>&amp;Edit the last question</source>
        <translation>编辑最后一个问题(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Regenerate the answer</source>
        <translation>重新生成回答(&amp;R)</translation>
    </message>
    <message>
        <source>There is no question here to edit.</source>
        <translation>这里没有可以编辑的问题。</translation>
    </message>
    <message>
        <source>St&amp;op the answer</source>
        <translation>停止回答(&amp;o)</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MarkdownSource</name>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>[image not shown: %1]</source>
        <translation>[未显示图片：%1]</translation>
    </message>
    <message>
        <source>[the image at %1 could not be loaded]</source>
        <translation>[无法加载位于 %1 的图像]</translation>
    </message>
    <message>
        <source>Load image from</source>
        <translation>加载图像，来源：</translation>
    </message>
    <message>
        <source>[image not found: %1]</source>
        <translation>[找不到图像：%1]</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MarkdownView</name>
    <message>
        <source>Links to files outside this conversation&apos;s folder are not opened.</source>
        <translation>不会打开指向本对话文件夹以外文件的链接。</translation>
    </message>
    <message>
        <source>Copy Formula as &amp;TeX</source>
        <translation>复制公式为 TeX(&amp;T)</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MathObject</name>
    <message>
        <source>no math renderer</source>
        <translation>没有公式渲染器</translation>
    </message>
    <message>
        <source>This TeX cannot be drawn: %1</source>
        <translation>无法绘制此 TeX：%1</translation>
    </message>
    <message>
        <source>Formulas are shown as TeX: %1.</source>
        <translation>公式以 TeX 显示：%1。</translation>
    </message>
    <message>
        <source>Drawing the formula…</source>
        <translation>正在绘制公式…</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MathRenderer</name>
    <message>
        <source>The math renderer gave an answer that cannot be shown.</source>
        <translation>公式渲染器返回的结果无法显示。</translation>
    </message>
    <message>
        <source>the math renderer stopped answering</source>
        <translation>公式渲染器不再响应</translation>
    </message>
    <message>
        <source>the math renderer did not start in time</source>
        <translation>公式渲染器未能及时启动</translation>
    </message>
    <message>
        <source>the sandbox is off in the settings</source>
        <translation>沙盒已在设置中关闭</translation>
    </message>
    <message numerus="yes">
        <source>The formula is longer than %n characters.</source>
        <translation>
            <numerusform>公式超过 %n 个字符。</numerusform>
        </translation>
    </message>
    <message>
        <source>the math renderer is missing from this build</source>
        <translation>此版本缺少公式渲染器</translation>
    </message>
    <message>
        <source>the Docker client (%1) could not be started</source>
        <translation>无法启动 Docker 客户端（%1）</translation>
    </message>
    <message>
        <source>the math renderer gave an answer that cannot be read</source>
        <translation>公式渲染器返回的结果无法读取</translation>
    </message>
    <message>
        <source>the sandbox image %1 is missing</source>
        <translation>缺少沙盒镜像 %1</translation>
    </message>
    <message>
        <source>the math renderer could not start</source>
        <translation>公式渲染器无法启动</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpCatalog</name>
    <message>
        <source>It listed a tool without a name; it is not offered to the model.</source>
        <translation>它列出了一个没有名称的工具；该工具不会提供给模型。</translation>
    </message>
    <message>
        <source>The tool &quot;%1&quot; has an invalid input schema (it must be a JSON Schema object of type &quot;object&quot;); it is not offered to the model.</source>
        <translation>工具“%1”的输入模式无效（它必须是类型为“object”的 JSON Schema 对象）；该工具不会提供给模型。</translation>
    </message>
    <message>
        <source>It lists the tool &quot;%1&quot; twice; only the first is offered to the model.</source>
        <translation>它把工具“%1”列出了两次；只有第一个会提供给模型。</translation>
    </message>
    <message>
        <source>It did not list its tools: %1</source>
        <translation>它未能列出其工具：%1</translation>
    </message>
    <message>
        <source>It did not list its tools again: %1</source>
        <translation>它未能重新列出其工具：%1</translation>
    </message>
    <message>
        <source>It did not list its prompts: %1</source>
        <translation>它未能列出其提示模板：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpConfigFile</name>
    <message>
        <source>%1, line %2, column %3</source>
        <translation>%1，第 %2 行，第 %3 列</translation>
    </message>
    <message>
        <source>%1: the server &quot;%2&quot; is skipped: %3</source>
        <translation>%1：已跳过服务器“%2”：%3</translation>
    </message>
    <message>
        <source>%1 cannot be read, so it is left as it is: correct it first.</source>
        <translation>无法读取 %1，因此保持原样：请先修正它。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpConnection</name>
    <message>
        <source>It did not answer the initialize request within %1 s.</source>
        <translation>它未在 %1 秒内响应 initialize 请求。</translation>
    </message>
    <message>
        <source>It refused to initialize: %1</source>
        <translation>它拒绝初始化：%1</translation>
    </message>
    <message>
        <source>It speaks MCP version &quot;%1&quot;, which Sandpiper does not support (it speaks %2).</source>
        <translation>它使用 MCP 版本“%1”，Sandpiper 不支持该版本（支持 %2）。</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; is switched off.</source>
        <translation>MCP 服务器“%1”已关闭。</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; is not available: %2</source>
        <translation>MCP 服务器“%1”不可用：%2</translation>
    </message>
    <message>
        <source>It sent a message that is neither a request, a notification nor an answer.</source>
        <translation>它发送了一条既不是请求、通知也不是回复的消息。</translation>
    </message>
    <message>
        <source>It answered a request that Sandpiper never sent (id %1); the answer was ignored.</source>
        <translation>它回复了 Sandpiper 从未发送过的请求（id %1）；该回复已被忽略。</translation>
    </message>
    <message>
        <source>error %1</source>
        <translation>错误 %1</translation>
    </message>
    <message>
        <source>It sent a notification Sandpiper does not know (%1); it was ignored.</source>
        <translation>它发送了 Sandpiper 不认识的通知（%1）；已忽略。</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; did not answer within %2 s.</source>
        <translation>MCP 服务器“%1”未在 %2 秒内响应。</translation>
    </message>
    <message>
        <source>Its last words on stderr: %1</source>
        <translation>它在 stderr 上的最后输出：%1</translation>
    </message>
    <message>
        <source>%1 It is started again in %2 s.</source>
        <translation>%1 将在 %2 秒后重新启动。</translation>
    </message>
    <message>
        <source>%1 It stopped %2 times in a row; restart it from the settings.</source>
        <translation>%1 它已连续停止 %2 次；请在设置中重新启动它。</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; stopped while it worked on this: %2</source>
        <translation>MCP 服务器“%1”在处理此请求时停止了：%2</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; was restarted.</source>
        <translation>MCP 服务器“%1”已重新启动。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpHttpTransport</name>
    <message>
        <source>The server ended its answer stream without an answer.</source>
        <translation>服务器结束了响应流，但没有给出回复。</translation>
    </message>
    <message>
        <source>The server ended the session (HTTP 404).</source>
        <translation>服务器结束了会话（HTTP 404）。</translation>
    </message>
    <message>
        <source>The server refused access (HTTP %1): check the headers of this server, such as its token. %2</source>
        <translation>服务器拒绝访问（HTTP %1）：请检查此服务器的请求头，例如其令牌。%2</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1：%2</translation>
    </message>
    <message>
        <source>A message to the server was not accepted: %1</source>
        <translation>服务器未接受一条消息：%1</translation>
    </message>
    <message>
        <source>It sent something that is not JSON-RPC: &quot;%1&quot;</source>
        <translation>它发送了不是 JSON-RPC 的内容：“%1”</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpHub</name>
    <message>
        <source>The MCP server &quot;%1&quot; was removed or changed.</source>
        <translation>MCP 服务器“%1”已被移除或更改。</translation>
    </message>
    <message>
        <source>There is no MCP server &quot;%1&quot;.</source>
        <translation>没有名为“%1”的 MCP 服务器。</translation>
    </message>
    <message>
        <source>The test is over.</source>
        <translation>测试已结束。</translation>
    </message>
    <message>
        <source>Its tools would have the same names as those of &quot;%1&quot; (both begin with &quot;%2__&quot;); rename one of the two servers.</source>
        <translation>它的工具名称会与“%1”的工具相同（都以“%2__”开头）；请重命名其中一个服务器。</translation>
    </message>
    <message>
        <source>Sandpiper is quitting.</source>
        <translation>Sandpiper 正在退出。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpLegacySseTransport</name>
    <message>
        <source>It sent something that is not JSON-RPC: &quot;%1&quot;</source>
        <translation>它发送了不是 JSON-RPC 的内容：“%1”</translation>
    </message>
    <message>
        <source>The server answered the event stream with HTTP %1.</source>
        <translation>服务器以 HTTP %1 响应了事件流。</translation>
    </message>
    <message>
        <source>The server&apos;s event stream ended before it named its message endpoint.</source>
        <translation>服务器的事件流在告知消息端点之前就结束了。</translation>
    </message>
    <message>
        <source>The server closed its event stream.</source>
        <translation>服务器关闭了其事件流。</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>A message to the server was not accepted: %1</source>
        <translation>服务器未接受一条消息：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpPromptDialog</name>
    <message>
        <source>Prompt %1</source>
        <translation>提示模板 %1</translation>
    </message>
    <message>
        <source>The MCP server %1 fills this prompt in from what you give.</source>
        <translation>MCP 服务器 %1 会根据你提供的内容填写此提示模板。</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>%1 *:</source>
        <translation>%1 *：</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <source>Use the prompt</source>
        <translation>使用提示模板</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpSecrets</name>
    <message>
        <source>the keychain has no secret &quot;%1&quot;</source>
        <translation>钥匙串中没有密钥“%1”</translation>
    </message>
    <message>
        <source>the environment variable %1 is not set</source>
        <translation>环境变量 %1 未设置</translation>
    </message>
    <message>
        <source>Its settings refer to what is missing: %1.</source>
        <translation>它的设置引用了缺失的内容：%1。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpServerDialog</name>
    <message>
        <source>Arguments, one per line</source>
        <translation>参数，每行一个</translation>
    </message>
    <message>
        <source>One per line, such as
-y
@modelcontextprotocol/server-filesystem</source>
        <translation>每行一个，例如
-y
@modelcontextprotocol/server-filesystem</translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>NAME=value, one per line; ${keychain:NAME} reads a secret</source>
        <translation>NAME=value，每行一个；${keychain:NAME} 读取一个密钥</translation>
    </message>
    <message>
        <source>HTTP headers</source>
        <translation>HTTP 请求头</translation>
    </message>
    <message>
        <source>Name: value, one per line, such as
Authorization: Bearer ${keychain:token}</source>
        <translation>Name: value，每行一个，例如
Authorization: Bearer ${keychain:token}</translation>
    </message>
    <message>
        <source>&amp;Enabled</source>
        <translation>启用(&amp;E)</translation>
    </message>
    <message>
        <source>Add an MCP server</source>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <source>Edit the MCP server %1</source>
        <translation>编辑 MCP 服务器 %1</translation>
    </message>
    <message>
        <source>Server name</source>
        <translation>服务器名称</translation>
    </message>
    <message>
        <source>A program on this computer (stdio)</source>
        <translation>本机上的程序（stdio）</translation>
    </message>
    <message>
        <source>A remote server (Streamable HTTP)</source>
        <translation>远程服务器（Streamable HTTP）</translation>
    </message>
    <message>
        <source>A remote server (old HTTP+SSE only)</source>
        <translation>远程服务器（仅旧版 HTTP+SSE）</translation>
    </message>
    <message>
        <source>Kind of server</source>
        <translation>服务器类型</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>npx, uvx, node, or a path</source>
        <translation>npx、uvx、node 或一个路径</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>服务器 URL</translation>
    </message>
    <message>
        <source>https://example.com/mcp</source>
        <translation>https://example.com/mcp</translation>
    </message>
    <message>
        <source>Default of the settings</source>
        <translation>使用设置中的默认值</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Timeout per request in seconds</source>
        <translation>每个请求的超时（秒）</translation>
    </message>
    <message>
        <source>Server enabled</source>
        <translation>已启用服务器</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>命令(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Arguments:</source>
        <translation>参数(&amp;A)：</translation>
    </message>
    <message>
        <source>En&amp;vironment:</source>
        <translation>环境变量(&amp;v)：</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>&amp;URL：</translation>
    </message>
    <message>
        <source>&amp;Headers:</source>
        <translation>请求头(&amp;H)：</translation>
    </message>
    <message>
        <source>Store a &amp;secret in the keychain…</source>
        <translation>在钥匙串中保存密钥(&amp;s)…</translation>
    </message>
    <message>
        <source>Store a secret in the keychain</source>
        <translation>在钥匙串中保存密钥</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation>超时(&amp;T)：</translation>
    </message>
    <message>
        <source>Give the server a name.</source>
        <translation>请为服务器命名。</translation>
    </message>
    <message>
        <source>There is a server named %1 already.</source>
        <translation>已有名为 %1 的服务器。</translation>
    </message>
    <message>
        <source>This server cannot be used: %1</source>
        <translation>无法使用此服务器：%1</translation>
    </message>
    <message>
        <source>Store a secret</source>
        <translation>保存密钥</translation>
    </message>
    <message>
        <source>Name (mcp.json refers to it as ${keychain:NAME}):</source>
        <translation>名称（mcp.json 中以 ${keychain:NAME} 引用）：</translation>
    </message>
    <message>
        <source>Value of %1:</source>
        <translation>%1 的值：</translation>
    </message>
    <message>
        <source>Stored. Write ${keychain:%1} where the server needs it.</source>
        <translation>已保存。在服务器需要的地方写 ${keychain:%1}。</translation>
    </message>
    <message>
        <source>The keychain did not take it: %1</source>
        <translation>钥匙串未能保存：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpServerRegistry</name>
    <message>
        <source>The MCP server &quot;%1&quot; did not answer in time.</source>
        <translation>MCP 服务器“%1”未及时响应。</translation>
    </message>
    <message>
        <source>The test got no answer in time.</source>
        <translation>测试未及时得到响应。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpSettingsPage</name>
    <message>
        <source>&amp;Import them</source>
        <translation>导入(&amp;I)</translation>
    </message>
    <message>
        <source>Import the servers of another app</source>
        <translation>导入其他应用的服务器</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <source>Add an MCP server</source>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <source>Edit the MCP server</source>
        <translation>编辑 MCP 服务器</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>移除(&amp;m)</translation>
    </message>
    <message>
        <source>Remove the MCP server</source>
        <translation>移除 MCP 服务器</translation>
    </message>
    <message>
        <source>Re&amp;start</source>
        <translation>重新启动(&amp;s)</translation>
    </message>
    <message>
        <source>Restart the MCP server</source>
        <translation>重新启动 MCP 服务器</translation>
    </message>
    <message>
        <source>&amp;Test</source>
        <translation>测试(&amp;T)</translation>
    </message>
    <message>
        <source>Test the MCP server: connect and list its tools</source>
        <translation>测试 MCP 服务器：连接并列出其工具</translation>
    </message>
    <message>
        <source>MCP servers are programs that run on this computer with your own rights, or services that act in your name: they can read and change whatever you can. Add only servers you trust. Every tool asks before it runs unless you choose otherwise.</source>
        <translation>MCP 服务器是以你本人的权限在这台计算机上运行的程序，或以你的名义行事的服务：凡是你能读取和更改的，它们都能读取和更改。只添加你信任的服务器。除非你另有选择，每个工具在运行前都会先征求你的同意。</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>The server&apos;s last lines on stderr</source>
        <translation>服务器在 stderr 上的最后几行</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>Tools of the selected server</source>
        <translation>所选服务器的工具</translation>
    </message>
    <message>
        <source>Open mcp.&amp;json</source>
        <translation>打开 mcp.&amp;json</translation>
    </message>
    <message>
        <source>Open mcp.json in another program</source>
        <translation>用其他程序打开 mcp.json</translation>
    </message>
    <message>
        <source>&amp;Logs</source>
        <translation>日志(&amp;L)</translation>
    </message>
    <message>
        <source>Open the folder of the servers&apos; logs</source>
        <translation>打开服务器日志所在的文件夹</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Default timeout per MCP request in seconds</source>
        <translation>每个 MCP 请求的默认超时（秒）</translation>
    </message>
    <message>
        <source>Default time&amp;out per request:</source>
        <translation>每个请求的默认超时(&amp;o)：</translation>
    </message>
    <message>
        <source>Nothing is changed in it until it is corrected; the servers read before go on.</source>
        <translation>在修正之前不会更改其中任何内容；之前读取的服务器继续运行。</translation>
    </message>
    <message numerus="yes">
        <source>%n MCP server(s) are set up in %1. Use them in Sandpiper too?</source>
        <translation>
            <numerusform>%1 中设置了 %n 个 MCP 服务器。也在 Sandpiper 中使用它们吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>changed: applies with OK</source>
        <translation>已更改：点击“确定”后生效</translation>
    </message>
    <message>
        <source>not started (starts when first needed)</source>
        <translation>未启动（首次需要时启动）</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message numerus="yes">
        <source>running with %n tool(s)</source>
        <translation>
            <numerusform>运行中，有 %n 个工具</numerusform>
        </translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>No MCP servers yet: add one, or write them into %1 as Claude Desktop does.</source>
        <translation>还没有 MCP 服务器：添加一个，或像 Claude Desktop 那样写入 %1。</translation>
    </message>
    <message>
        <source>%1, MCP %2</source>
        <translation>%1，MCP %2</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message numerus="yes">
        <source>Test: connected, %n tool(s).</source>
        <translation>
            <numerusform>测试：已连接，有 %n 个工具。</numerusform>
        </translation>
    </message>
    <message>
        <source>Test failed: %1</source>
        <translation>测试失败：%1</translation>
    </message>
    <message>
        <source>(not listed by the server now)</source>
        <translation>（服务器目前未列出）</translation>
    </message>
    <message>
        <source>Ask every time</source>
        <translation>每次都询问</translation>
    </message>
    <message>
        <source>Run without asking</source>
        <translation>直接运行，不询问</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>Approval for %1</source>
        <translation>%1 的批准方式</translation>
    </message>
    <message>
        <source>Take back</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Always allowed from a chat on %1</source>
        <translation>于 %1 在对话中设为始终允许</translation>
    </message>
    <message>
        <source>Take back &quot;Always allow&quot; for %1</source>
        <translation>撤销 %1 的“始终允许”</translation>
    </message>
    <message>
        <source>Taken back</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <source>mcp.json could not be written: %1</source>
        <translation>无法写入 mcp.json：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpStdioTransport</name>
    <message>
        <source>The program &quot;%1&quot; was not found on the PATH (%2). Is it installed?</source>
        <translation>在 PATH（%2）中找不到程序“%1”。它安装了吗？</translation>
    </message>
    <message>
        <source>The working folder %1 does not exist.</source>
        <translation>工作文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>The server stopped: it was killed or crashed.</source>
        <translation>服务器已停止：它被终止或崩溃了。</translation>
    </message>
    <message>
        <source>The server exited with code %1.</source>
        <translation>服务器已退出，退出码 %1。</translation>
    </message>
    <message>
        <source>The program %1 could not be started: %2</source>
        <translation>无法启动程序 %1：%2</translation>
    </message>
    <message>
        <source>The server sent a message larger than %1 MB without a line end; the connection was closed.</source>
        <translation>服务器发送了一条超过 %1 MB 且没有换行的消息；连接已关闭。</translation>
    </message>
    <message>
        <source>It wrote text to its standard output that is not JSON-RPC (MCP servers may only write protocol messages there; logs belong on stderr): &quot;%1&quot;</source>
        <translation>它向标准输出写入了不是 JSON-RPC 的文本（MCP 服务器只能在那里写协议消息；日志应写到 stderr）：“%1”</translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpToolbox</name>
    <message>
        <source>The MCP server &quot;%1&quot; is not available, so its tools are not offered: %2</source>
        <translation>MCP 服务器“%1”不可用，因此不提供其工具：%2</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; is still starting; its tools join from your next message.</source>
        <translation>MCP 服务器“%1”仍在启动；它的工具将从你的下一条消息起加入。</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; did not answer in time.</source>
        <translation>MCP 服务器“%1”未及时响应。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MessageEditor</name>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Edited message</source>
        <translation>编辑后的消息</translation>
    </message>
    <message>
        <source>The message to send instead</source>
        <translation>改为发送的消息</translation>
    </message>
    <message>
        <source>Send the edited message</source>
        <translation>发送编辑后的消息</translation>
    </message>
    <message>
        <source>Cancel editing</source>
        <translation>取消编辑</translation>
    </message>
    <message>
        <source>Keep the message as it is (Esc)</source>
        <translation>保持消息不变（Esc）</translation>
    </message>
    <message>
        <source>An answer is being written: stop it or let it finish, then send the edited message.</source>
        <translation>正在撰写回答：请停止它或等它完成，然后再发送编辑后的消息。</translation>
    </message>
    <message>
        <source>Write something to send, or cancel to keep the message as it is.</source>
        <translation>请输入要发送的内容，或取消以保持消息不变。</translation>
    </message>
    <message>
        <source>Enter sends it as a new version, Esc keeps the message as it is; Shift+Enter starts a new line.</source>
        <translation>Enter 将其作为新版本发送，Esc 保持消息不变；Shift+Enter 另起一行。</translation>
    </message>
    <message>
        <source>Send it as a new version (Enter); this version and what followed it are kept, a click away</source>
        <translation>作为新版本发送（Enter）；此版本及其后的内容都会保留，点击即可查看</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MessageWidget</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy message</source>
        <translation>复制消息</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>编辑并重新发送</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Regenerate answer</source>
        <translation>重新生成回答</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Retry after the error</source>
        <translation>出错后重试</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考过程</translation>
    </message>
    <message>
        <source>Show the model&apos;s reasoning</source>
        <translation>显示模型的推理过程</translation>
    </message>
    <message>
        <source>Your message</source>
        <translation>你的消息</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>writing…</source>
        <translation>正在撰写…</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>interrupted: Sandpiper stopped while this was written</source>
        <translation>已中断：撰写此内容时 Sandpiper 已停止运行</translation>
    </message>
    <message>
        <source>Copy this message&apos;s text</source>
        <translation>复制这条消息的文字</translation>
    </message>
    <message>
        <source>Ask the model for another answer to the same question</source>
        <translation>让模型对同一问题再给出一个回答</translation>
    </message>
    <message>
        <source>Send the question again after the error</source>
        <translation>出错后再次发送这个问题</translation>
    </message>
    <message>
        <source>Attached files</source>
        <translation>附件</translation>
    </message>
    <message>
        <source>‹</source>
        <translation>‹</translation>
    </message>
    <message>
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <source>›</source>
        <translation>›</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <source>Delete version</source>
        <translation>删除版本</translation>
    </message>
    <message>
        <source>Delete this version</source>
        <translation>删除此版本</translation>
    </message>
    <message>
        <source>Change this message and ask again; this version and what followed it are kept</source>
        <translation>修改此消息并重新提问；此版本及其后的内容都会保留</translation>
    </message>
    <message>
        <source>Delete this version and everything that followed it; the other versions stay</source>
        <translation>删除此版本及其后的所有内容；其他版本保留</translation>
    </message>
    <message>
        <source>Delete this version and everything that followed it? The other versions stay.</source>
        <translation>删除此版本及其后的所有内容吗？其他版本会保留。</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Version %1 of %2</source>
        <translation>第 %1 个版本，共 %2 个</translation>
    </message>
    <message>
        <source>Version %1 of %2, previous</source>
        <translation>第 %1 个版本，共 %2 个；上一个</translation>
    </message>
    <message>
        <source>Version %1 of %2, next</source>
        <translation>第 %1 个版本，共 %2 个；下一个</translation>
    </message>
    <message>
        <source>no text: the model ended this answer without writing any</source>
        <translation>没有文字：模型未写出任何内容就结束了这条回答</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelDownload</name>
    <message>
        <source>The disk is full: %1 needs %2 more, and %3 is free in %4. What was downloaded is kept; free some space, then resume.</source>
        <translation>磁盘已满：%1 还需要 %2，而 %4 中只有 %3 可用。已下载的部分会保留；请释放一些空间，然后继续下载。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not the name of a repository of the hub.</source>
        <translation>“%1”不是 Hub 上的仓库名称。</translation>
    </message>
    <message>
        <source>The hub does not list every file of %1.</source>
        <translation>Hub 没有列出 %1 的全部文件。</translation>
    </message>
    <message>
        <source>The hub&apos;s file name &quot;%1&quot; is not one Sandpiper saves.</source>
        <translation>Hub 给出的文件名“%1”不是 Sandpiper 会保存的文件名。</translation>
    </message>
    <message>
        <source>%1 is already here.</source>
        <translation>%1 已在这里。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be made.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Downloading %1…</source>
        <translation>正在下载 %1…</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Checking what was downloaded of %1 before…</source>
        <translation>正在检查之前已下载的 %1 部分…</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>The server of %1 does not send the part of the file that was asked for.</source>
        <translation>%1 的服务器没有发送所请求的文件部分。</translation>
    </message>
    <message>
        <source>The hub sent more of %1 than the %2 it lists; what came was deleted.</source>
        <translation>Hub 发送的 %1 超过了它列出的 %2；收到的内容已删除。</translation>
    </message>
    <message>
        <source>The disk is full: %1 could not be written further in %2. What was downloaded is kept; free some space, then resume.</source>
        <translation>磁盘已满：无法继续在 %2 中写入 %1。已下载的部分会保留；请释放一些空间，然后继续下载。</translation>
    </message>
    <message>
        <source>%1 could not be written: %2. What was downloaded is kept; resume to try again.</source>
        <translation>无法写入 %1：%2。已下载的部分会保留；继续下载即可重试。</translation>
    </message>
    <message>
        <source>the connection ended after %1 of %2</source>
        <translation>连接在下载了 %1（共 %2）后中断</translation>
    </message>
    <message>
        <source>the server answered %1</source>
        <translation>服务器的回应是 %1</translation>
    </message>
    <message>
        <source>file %1 of %2</source>
        <translation>第 %1 个文件，共 %2 个</translation>
    </message>
    <message>
        <source>The hub lists %1 as %2 but now serves it as %3: the repository changed. Look at its files again.</source>
        <translation>Hub 列出的 %1 为 %2，但现在提供的是 %3：仓库已更改。请重新查看其文件。</translation>
    </message>
    <message>
        <source>The hub lists %1 with another SHA-256 than the file it now serves: the repository changed. Look at its files again.</source>
        <translation>Hub 列出的 %1 的 SHA-256 与它现在提供的文件不同：仓库已更改。请重新查看其文件。</translation>
    </message>
    <message>
        <source>The hub sent the download of %1 through too many redirects.</source>
        <translation>Hub 对 %1 的下载重定向次数过多。</translation>
    </message>
    <message>
        <source>The hub sent the download of %1 to an address Sandpiper does not follow: %2.</source>
        <translation>Hub 将 %1 的下载重定向到了 Sandpiper 不会跟随的地址：%2。</translation>
    </message>
    <message>
        <source>The hub sent the download of %1 to %2, which is neither the hub nor one of its file hosts; Sandpiper did not follow it.</source>
        <translation>Hub 将 %1 的下载重定向到了 %2，它既不是 Hub 也不是 Hub 的文件主机；Sandpiper 没有跟随。</translation>
    </message>
    <message>
        <source>The download of %1 stopped: %2. What was downloaded is kept; resume to go on from there.</source>
        <translation>%1 的下载已停止：%2。已下载的部分会保留；继续下载即可从中断处接着下载。</translation>
    </message>
    <message>
        <source>The connection dropped (%1); trying again in %2 s.</source>
        <translation>连接中断（%1）；将在 %2 秒后重试。</translation>
    </message>
    <message>
        <source>%1 does not match the SHA-256 that the hub publishes for it (%2…, it is %3…), so it was deleted. Download it again; if this happens again, the hub&apos;s copy or something between it and this computer is at fault.</source>
        <translation>%1 与 Hub 为其公布的 SHA-256 不符（应为 %2…，实际为 %3…），因此已将其删除。请重新下载；如果再次出现这种情况，问题出在 Hub 上的副本，或它与本机之间的某个环节。</translation>
    </message>
    <message>
        <source>%1 is not a GGUF model that Sandpiper can run (%2), so it was removed.</source>
        <translation>%1 不是 Sandpiper 能运行的 GGUF 模型（%2），因此已将其移除。</translation>
    </message>
    <message>
        <source>%1 could not be put in its place.</source>
        <translation>无法将 %1 放到其位置。</translation>
    </message>
    <message>
        <source>%1 is downloaded (%2), its SHA-256 checked.</source>
        <translation>%1 已下载（%2），其 SHA-256 已校验。</translation>
    </message>
    <message>
        <source>Paused at %1 of %2.</source>
        <translation>已暂停于 %1 / %2。</translation>
    </message>
    <message>
        <source>The download of %1 was canceled.</source>
        <translation>%1 的下载已取消。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelDownloadPanel</name>
    <message>
        <source>Fi&amp;nd</source>
        <translation>查找(&amp;n)</translation>
    </message>
    <message>
        <source>Do&amp;wnload</source>
        <translation>下载(&amp;w)</translation>
    </message>
    <message>
        <source>Paus&amp;e</source>
        <translation>暂停(&amp;e)</translation>
    </message>
    <message>
        <source>&amp;Cancel download</source>
        <translation>取消下载(&amp;C)</translation>
    </message>
    <message>
        <source>A repository (owner/name) or words to search the Hugging Face hub</source>
        <translation>仓库（owner/name）或用于搜索 Hugging Face Hub 的关键词</translation>
    </message>
    <message>
        <source>Hugging Face repository or search</source>
        <translation>Hugging Face 仓库或搜索</translation>
    </message>
    <message>
        <source>Find models on the Hugging Face hub</source>
        <translation>在 Hugging Face Hub 上查找模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Models to download</source>
        <translation>可下载的模型</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>下载所选模型</translation>
    </message>
    <message>
        <source>Hugging Face token, for gated models only</source>
        <translation>Hugging Face 令牌，仅用于受限模型</translation>
    </message>
    <message>
        <source>Hugging Face token</source>
        <translation>Hugging Face 令牌</translation>
    </message>
    <message>
        <source>Kept in the system keychain, like the API keys; sent to the hub alone.</source>
        <translation>与 API 密钥一样保存在系统钥匙串中；只会发送给 Hub。</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>下载进度</translation>
    </message>
    <message>
        <source>Download speed and time left</source>
        <translation>下载速度和剩余时间</translation>
    </message>
    <message>
        <source>Pause or resume the download</source>
        <translation>暂停或继续下载</translation>
    </message>
    <message>
        <source>Cancel the download and delete what came</source>
        <translation>取消下载并删除已下载的内容</translation>
    </message>
    <message>
        <source>Download status</source>
        <translation>下载状态</translation>
    </message>
    <message>
        <source>%1, needs %2 of memory</source>
        <translation>%1，需要 %2 内存</translation>
    </message>
    <message>
        <source>Searching the hub for &quot;%1&quot;…</source>
        <translation>正在 Hub 上搜索“%1”…</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>needs a token</source>
        <translation>需要令牌</translation>
    </message>
    <message>
        <source>choose a quantization</source>
        <translation>请选择量化版本</translation>
    </message>
    <message>
        <source>No GGUF repository on the hub matches &quot;%1&quot;.</source>
        <translation>Hub 上没有与“%1”匹配的 GGUF 仓库。</translation>
    </message>
    <message>
        <source>Choose a repository to see its quantizations.</source>
        <translation>选择一个仓库以查看其量化版本。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>%1 of %2 parts listed</source>
        <translation>已列出 %2 个部分中的 %1 个</translation>
    </message>
    <message>
        <source>Larger than this computer&apos;s memory (%1).</source>
        <translation>大于本机内存（%1）。</translation>
    </message>
    <message>
        <source>%1: choose a quantization to download.</source>
        <translation>%1：请选择要下载的量化版本。</translation>
    </message>
    <message>
        <source>%1 has no GGUF model.</source>
        <translation>%1 中没有 GGUF 模型。</translation>
    </message>
    <message>
        <source>The keychain could not keep the token (%1): it is used until you quit.</source>
        <translation>钥匙串无法保存令牌（%1）：在你退出之前会一直使用它。</translation>
    </message>
    <message>
        <source>One download at a time: pause or cancel the one under way first.</source>
        <translation>一次只能下载一个：请先暂停或取消正在进行的下载。</translation>
    </message>
    <message numerus="yes">
        <source>%n s left</source>
        <translation>
            <numerusform>剩余 %n 秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min left</source>
        <translation>
            <numerusform>剩余 %n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 at %3/s</source>
        <translation>%1 / %2，%3/秒</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Resum&amp;e</source>
        <translation>继续(&amp;e)</translation>
    </message>
    <message>
        <source>%1 downloaded so far</source>
        <translation>已下载 %1</translation>
    </message>
    <message>
        <source>On this computer already; needs %1 of memory</source>
        <translation>已在本机上；需要 %1 内存</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelDownloads</name>
    <message>
        <source>One download at a time: pause or cancel the one under way first.</source>
        <translation>一次只能下载一个：请先暂停或取消正在进行的下载。</translation>
    </message>
    <message>
        <source>The download was closed.</source>
        <translation>下载已关闭。</translation>
    </message>
    <message>
        <source>There is no unfinished download.</source>
        <translation>没有未完成的下载。</translation>
    </message>
    <message>
        <source>Downloading %1… %2%</source>
        <translation>正在下载 %1… %2%</translation>
    </message>
    <message>
        <source>The download of %1 is paused.</source>
        <translation>%1 的下载已暂停。</translation>
    </message>
    <message>
        <source>The download of %1 stopped: %2</source>
        <translation>%1 的下载已停止：%2</translation>
    </message>
    <message>
        <source>The download of %1 stopped when Sandpiper quit: resume it in Settings › Models.</source>
        <translation>%1 的下载在 Sandpiper 退出时停止了：请在“设置 › 模型”中继续下载。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelLister</name>
    <message>
        <source>%1 does not answer at %2.</source>
        <translation>%1 在 %2 没有响应。</translation>
    </message>
    <message>
        <source>an empty address</source>
        <translation>空地址</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelProbe</name>
    <message>
        <source>as native tool_calls</source>
        <translation>以原生 tool_calls 形式</translation>
    </message>
    <message>
        <source>written as text in the %1 dialect</source>
        <translation>以 %1 格式写成文本</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>%1 秒内无回答</translation>
    </message>
    <message>
        <source>the answer was empty (finish reason &quot;%1&quot;)</source>
        <translation>回答为空（结束原因“%1”）</translation>
    </message>
    <message>
        <source>the answer reached the probe&apos;s limit of %1 tokens before any call</source>
        <translation>回答在发出任何调用之前就达到了测试的 %1 个词元上限</translation>
    </message>
    <message>
        <source>the model answered without calling %1: &quot;%2&quot;</source>
        <translation>模型未调用 %1 就直接回答了：“%2”</translation>
    </message>
    <message>
        <source>the server does not say how large the window is</source>
        <translation>服务器没有说明窗口有多大</translation>
    </message>
    <message>
        <source>a window of %1 tokens is larger than the probe&apos;s budget of %2 tokens</source>
        <translation>%1 个词元的窗口超过了测试的 %2 个词元预算</translation>
    </message>
    <message>
        <source>A plain answer</source>
        <translation>普通回答</translation>
    </message>
    <message>
        <source>the plain answer did not come</source>
        <translation>没有收到普通回答</translation>
    </message>
    <message>
        <source>%1 tokens: &quot;%2&quot;</source>
        <translation>%1 个词元：“%2”</translation>
    </message>
    <message>
        <source>One tool call</source>
        <translation>单个工具调用</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>called %1, which was not declared</source>
        <translation>调用了未声明的 %1</translation>
    </message>
    <message>
        <source>Two parallel calls</source>
        <translation>两个并行调用</translation>
    </message>
    <message numerus="yes">
        <source>%n calls came back:</source>
        <translation>
            <numerusform>返回了 %n 个调用：</numerusform>
        </translation>
    </message>
    <message>
        <source>one call came back:</source>
        <translation>只返回了一个调用：</translation>
    </message>
    <message>
        <source>After a tool result</source>
        <translation>工具结果之后</translation>
    </message>
    <message>
        <source>answered: &quot;%1&quot;</source>
        <translation>回答：“%1”</translation>
    </message>
    <message>
        <source>called again: %1</source>
        <translation>再次调用：%1</translation>
    </message>
    <message>
        <source>(the reasoning went back with the history)</source>
        <translation>（推理随历史记录一起回传）</translation>
    </message>
    <message>
        <source>(the server refused the reasoning sent back)</source>
        <translation>（服务器拒绝了回传的推理）</translation>
    </message>
    <message>
        <source>A long prompt</source>
        <translation>长提示词</translation>
    </message>
    <message>
        <source>a prompt of %1 tokens was answered</source>
        <translation>已回答 %1 个词元的提示词</translation>
    </message>
    <message>
        <source>about %1 tokens were sent, the server counted %2: it cuts long prompts</source>
        <translation>发送了约 %1 个词元，服务器只计了 %2 个：它会截断长提示词</translation>
    </message>
    <message>
        <source>the server&apos;s context error</source>
        <translation>服务器的上下文错误</translation>
    </message>
    <message>
        <source>An image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>the server does not say whether the model takes images</source>
        <translation>服务器没有说明模型是否接受图像</translation>
    </message>
    <message>
        <source>the server says the model takes no images</source>
        <translation>服务器表示模型不接受图像</translation>
    </message>
    <message>
        <source>a red square, answered &quot;%1&quot;</source>
        <translation>一个红色方块，回答“%1”</translation>
    </message>
    <message>
        <source>the model writes its calls as text (%1)</source>
        <translation>模型以文本形式写出调用（%1）</translation>
    </message>
    <message>
        <source>the model reasons before its calls and the server takes the reasoning back</source>
        <translation>模型在调用之前进行推理，服务器接受回传的推理</translation>
    </message>
    <message>
        <source>the server refuses reasoning sent back</source>
        <translation>服务器拒绝回传的推理</translation>
    </message>
    <message>
        <source>the server&apos;s context error names a window of %1 tokens</source>
        <translation>服务器的上下文错误指出窗口为 %1 个词元</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelSettingsPage</name>
    <message>
        <source>&amp;Use for new conversations</source>
        <translation>用于新对话(&amp;U)</translation>
    </message>
    <message>
        <source>Add a &amp;GGUF file…</source>
        <translation>添加 GGUF 文件(&amp;G)…</translation>
    </message>
    <message>
        <source>Open the models &amp;folder</source>
        <translation>打开模型文件夹(&amp;f)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Trained context</source>
        <translation>训练上下文</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Models on this computer</source>
        <translation>本机上的模型</translation>
    </message>
    <message>
        <source>Use the selected model for new conversations</source>
        <translation>将所选模型用于新对话</translation>
    </message>
    <message>
        <source>Add a GGUF file</source>
        <translation>添加 GGUF 文件</translation>
    </message>
    <message>
        <source>A model file already on this computer: it stays where it is, and its folder is looked in from now on.</source>
        <translation>本机上已有的模型文件：它保留在原处，今后也会在它所在的文件夹中查找模型。</translation>
    </message>
    <message>
        <source>Open Sandpiper&apos;s models folder</source>
        <translation>打开 Sandpiper 的模型文件夹</translation>
    </message>
    <message>
        <source>Why no model can run</source>
        <translation>为什么没有模型可以运行</translation>
    </message>
    <message>
        <source>llama-server program</source>
        <translation>llama-server 程序</translation>
    </message>
    <message>
        <source>The one on PATH: %1</source>
        <translation>使用 PATH 中的：%1</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Stop the model after this many minutes without use</source>
        <translation>模型闲置多少分钟后停止</translation>
    </message>
    <message>
        <source>The model&apos;s memory is given back when no conversation used it for this long; the next message starts it again.</source>
        <translation>没有对话使用模型达到这么长时间后，释放其占用的内存；下一条消息会重新启动它。</translation>
    </message>
    <message>
        <source>Conversations answered at once</source>
        <translation>同时回答的对话数</translation>
    </message>
    <message>
        <source>Each one has a context of its own, so more of them leave each a shorter one.</source>
        <translation>每个对话都有自己的上下文，因此数量越多，每个对话的上下文就越短。</translation>
    </message>
    <message>
        <source>The flags the selected model runs with</source>
        <translation>所选模型运行时使用的命令行参数</translation>
    </message>
    <message>
        <source>Models run by llama-server on this computer: nothing leaves it. Models that LM Studio, llama.cpp and Hugging Face downloaded are offered where they are.</source>
        <translation>模型由 llama-server 在本机上运行：不会有任何数据离开本机。LM Studio、llama.cpp 和 Hugging Face 下载的模型会在其原位置提供。</translation>
    </message>
    <message>
        <source>Download from Hugging Face</source>
        <translation>从 Hugging Face 下载</translation>
    </message>
    <message>
        <source>llama-ser&amp;ver:</source>
        <translation>llama-server(&amp;v)：</translation>
    </message>
    <message>
        <source>Stop when &amp;idle after:</source>
        <translation>空闲多久后停止(&amp;i)：</translation>
    </message>
    <message>
        <source>Answer at &amp;once:</source>
        <translation>同时回答(&amp;o)：</translation>
    </message>
    <message>
        <source>Runs with:</source>
        <translation>运行参数：</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>No model on this computer yet. Add a GGUF file, or put one in %1.</source>
        <translation>本机上还没有模型。请添加 GGUF 文件，或将其放入 %1。</translation>
    </message>
    <message>
        <source>Choose a model to see how it runs.</source>
        <translation>选择一个模型以查看其运行方式。</translation>
    </message>
    <message>
        <source>%1 cannot be added: %2</source>
        <translation>无法添加 %1：%2</translation>
    </message>
    <message>
        <source>Add a GGUF model</source>
        <translation>添加 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message numerus="yes">
        <source>%1 tokens of context for each of %n conversation(s), %2 threads, %3; by %4; %5</source>
        <translation>
            <numerusform>%n 个对话各有 %1 个词元的上下文，%2 个线程，%3；由 %4 运行；%5</numerusform>
        </translation>
    </message>
    <message>
        <source>no llama-server found yet</source>
        <translation>尚未找到 llama-server</translation>
    </message>
    <message>
        <source>Get llama-server for &amp;Docker</source>
        <translation>为 Docker 获取 llama-server(&amp;D)</translation>
    </message>
    <message>
        <source>Sto&amp;p</source>
        <translation>停止(&amp;p)</translation>
    </message>
    <message>
        <source>Image of llama.cpp&apos;s server to pull</source>
        <translation>要拉取的 llama.cpp 服务器镜像</translation>
    </message>
    <message>
        <source>What “Get llama-server for Docker” pulls first: a mirror of it, or another variant (:server-vulkan, :server-cuda). Without a registry, the image is built from Debian&apos;s llama.cpp-tools with mmdebstrap.</source>
        <translation>“为 Docker 获取 llama-server”首先拉取的镜像：可以是它的镜像站副本，或其他变体（:server-vulkan、:server-cuda）。没有可用的镜像仓库时，会用 mmdebstrap 从 Debian 的 llama.cpp-tools 构建镜像。</translation>
    </message>
    <message>
        <source>Get llama-server for Docker</source>
        <translation>为 Docker 获取 llama-server</translation>
    </message>
    <message>
        <source>Pulls llama.cpp&apos;s server image, or builds one from Debian&apos;s packages, so that the models run in a container on this computer&apos;s Docker engine.</source>
        <translation>拉取 llama.cpp 的服务器镜像，或从 Debian 的软件包构建一个，使模型在本机 Docker 引擎上的容器中运行。</translation>
    </message>
    <message>
        <source>Stop getting llama-server</source>
        <translation>停止获取 llama-server</translation>
    </message>
    <message>
        <source>Where llama-server comes from</source>
        <translation>llama-server 的来源</translation>
    </message>
    <message>
        <source>Output of getting llama-server</source>
        <translation>获取 llama-server 的输出</translation>
    </message>
    <message>
        <source>None found: not on PATH, and no llama-server image for Docker yet</source>
        <translation>未找到：PATH 中没有，也还没有用于 Docker 的 llama-server 镜像</translation>
    </message>
    <message>
        <source>looking for llama-server…</source>
        <translation>正在查找 llama-server…</translation>
    </message>
    <message>
        <source>its devices not known yet</source>
        <translation>设备尚未确定</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelShelf</name>
    <message>
        <source>Sandpiper</source>
        <translation>Sandpiper</translation>
    </message>
    <message>
        <source>LM Studio</source>
        <translation>LM Studio</translation>
    </message>
    <message>
        <source>llama.cpp</source>
        <translation>llama.cpp</translation>
    </message>
    <message>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <source>added folder</source>
        <translation>添加的文件夹</translation>
    </message>
    <message>
        <source>Only %1 of its %2 files are here: download the model again (Settings › Models) to get the rest.</source>
        <translation>其 %2 个文件中只有 %1 个在此：请重新下载模型（“设置 › 模型”）以获取其余文件。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::NotebookExport</name>
    <message>
        <source>Untitled conversation</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <source>[Sandpiper] The kernel was replaced during this cell; its variables were lost.
</source>
        <translation>[Sandpiper] 在此单元格运行期间内核被替换；其变量已丢失。
</translation>
    </message>
    <message>
        <source>[Sandpiper] This cell ran in a new kernel: earlier variables were gone.</source>
        <translation>[Sandpiper] 此单元格在新内核中运行：之前的变量已丢失。</translation>
    </message>
    <message numerus="yes">
        <source>(%n more figure(s) were not kept)</source>
        <translation>
            <numerusform>（另有 %n 个图形未保留）</numerusform>
        </translation>
    </message>
    <message>
        <source>[… %1 more not kept]
</source>
        <translation>[… 另有 %1 未保留]
</translation>
    </message>
    <message>
        <source>(the figure %1 could not be included: %2)</source>
        <translation>（无法包含图形 %1：%2）</translation>
    </message>
    <message>
        <source>Could not export the notebook to %1: %2.</source>
        <translation>无法将笔记本导出到 %1：%2。</translation>
    </message>
    <message>
        <source>(the image %1 could not be included: %2)</source>
        <translation>（无法包含图像 %1：%2）</translation>
    </message>
</context>
<context>
    <name>Sandpiper::PromptTemplates</name>
    <message>
        <source>The prompt %1 could not be fetched: %2</source>
        <translation>无法获取提示模板 %1：%2</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ProviderProblemBar</name>
    <message>
        <source>Open &amp;settings…</source>
        <translation>打开设置(&amp;s)…</translation>
    </message>
    <message>
        <source>Provider problem</source>
        <translation>服务提供方问题</translation>
    </message>
    <message>
        <source>Why no answer can come</source>
        <translation>为什么无法得到回答</translation>
    </message>
    <message>
        <source>Open the settings to set up the provider</source>
        <translation>打开设置以配置服务提供方</translation>
    </message>
    <message>
        <source>&amp;Use %1</source>
        <translation>使用 %1(&amp;U)</translation>
    </message>
    <message>
        <source>Continue this conversation with %1</source>
        <translation>用 %1 继续此对话</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ProviderSettingsPage</name>
    <message>
        <source>Run tool &amp;calls the model writes as text</source>
        <translation>运行模型以文本形式写出的工具调用(&amp;c)</translation>
    </message>
    <message>
        <source>Send the model&apos;s reas&amp;oning back between tool rounds</source>
        <translation>在工具轮次之间回传模型的推理(&amp;o)</translation>
    </message>
    <message>
        <source>T&amp;est connection</source>
        <translation>测试连接(&amp;e)</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Leave empty to keep the current key</source>
        <translation>留空则保留当前密钥</translation>
    </message>
    <message>
        <source>Default model</source>
        <translation>默认模型</translation>
    </message>
    <message>
        <source>Extra headers</source>
        <translation>额外请求头</translation>
    </message>
    <message>
        <source>One per line, such as
X-Title: Sandpiper</source>
        <translation>每行一个，例如
X-Title: Sandpiper</translation>
    </message>
    <message>
        <source>As the server says</source>
        <translation>按服务器所报</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>Context window of this model</source>
        <translation>此模型的上下文窗口</translation>
    </message>
    <message>
        <source>How many tokens this model can take in. Sandpiper asks the server; set it here when the server does not say, or says more than it uses (Ollama without num_ctx). Longer conversations are shortened to fit, never changed.</source>
        <translation>此模型能接收多少词元。Sandpiper 会询问服务器；当服务器没有说明，或所报数值大于实际使用值（未设置 num_ctx 的 Ollama）时，请在此设置。更长的对话会被缩短以适应窗口，但绝不会被修改。</translation>
    </message>
    <message>
        <source>This model takes images</source>
        <translation>此模型接受图像</translation>
    </message>
    <message>
        <source>Text only</source>
        <translation>仅文本</translation>
    </message>
    <message>
        <source>Whether this model takes images</source>
        <translation>此模型是否接受图像</translation>
    </message>
    <message>
        <source>Sandpiper asks llama.cpp (/props), Ollama (/api/show) and LM Studio whether a model has vision. Say it here for other servers, or when the answer is wrong. A message with images to a text-only model is not sent.</source>
        <translation>Sandpiper 会询问 llama.cpp（/props）、Ollama（/api/show）和 LM Studio 模型是否支持视觉。对于其他服务器，或当回答有误时，请在此说明。带图像的消息不会发送给仅支持文本的模型。</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Longest side of images sent to the model, in pixels</source>
        <translation>发送给模型的图像的最长边（像素）</translation>
    </message>
    <message>
        <source>Larger images are scaled down to this before they are sent; the files in the conversation&apos;s folder stay as they are.</source>
        <translation>更大的图像在发送前会缩小到此尺寸；对话文件夹中的文件保持不变。</translation>
    </message>
    <message>
        <source>Run tool calls written as text</source>
        <translation>运行以文本形式写出的工具调用</translation>
    </message>
    <message>
        <source>Local servers often pass a model&apos;s tool calls on as text (&lt;tool_call&gt;, [TOOL_CALLS], …). Sandpiper recognises them and runs them like any other call.</source>
        <translation>本地服务器经常把模型的工具调用作为文本传递（&lt;tool_call&gt;、[TOOL_CALLS] 等）。Sandpiper 会识别它们，并像其他调用一样运行。</translation>
    </message>
    <message>
        <source>Send reasoning back between tool rounds</source>
        <translation>在工具轮次之间回传推理</translation>
    </message>
    <message>
        <source>Some models (gpt-oss on llama.cpp or vLLM) need their earlier reasoning of the same answer; some providers (DeepSeek) refuse it.</source>
        <translation>有些模型（在 llama.cpp 或 vLLM 上运行的 gpt-oss）需要同一回答中先前的推理；有些提供商（DeepSeek）则会拒绝它。</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Pro&amp;vider:</source>
        <translation>服务商(&amp;v)：</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;k)：</translation>
    </message>
    <message>
        <source>Default &amp;model:</source>
        <translation>默认模型(&amp;m)：</translation>
    </message>
    <message>
        <source>Extra &amp;headers:</source>
        <translation>额外请求头(&amp;h)：</translation>
    </message>
    <message>
        <source>Context &amp;window:</source>
        <translation>上下文窗口(&amp;w)：</translation>
    </message>
    <message>
        <source>I&amp;mages:</source>
        <translation>图像(&amp;m)：</translation>
    </message>
    <message>
        <source>Images &amp;up to:</source>
        <translation>图像最大(&amp;u)：</translation>
    </message>
    <message>
        <source>https://example.com/v1</source>
        <translation>https://example.com/v1</translation>
    </message>
    <message>
        <source>The keychain is not available (%1): the key is used until you quit Sandpiper and will not be remembered. Press OK to continue.</source>
        <translation>钥匙串不可用（%1）：该密钥只在 Sandpiper 本次运行期间使用，退出后不会保存。按“确定”继续。</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>Test this mo&amp;del</source>
        <translation>测试此模型(&amp;d)</translation>
    </message>
    <message>
        <source>Ca&amp;ncel test</source>
        <translation>取消测试(&amp;n)</translation>
    </message>
    <message>
        <source>What the model&apos;s report card says</source>
        <translation>模型测试报告的内容</translation>
    </message>
    <message>
        <source>Test this model</source>
        <translation>测试此模型</translation>
    </message>
    <message>
        <source>A few short requests to the model in the field: a plain answer, a tool call, two parallel calls, an answer after a tool result, a long prompt near its context window (up to 16k tokens) and an image where the server says it takes them. The report card says what really happens, what it cost in tokens, and which settings above it set.</source>
        <translation>向上面填写的模型发送几个简短请求：一次普通回答、一次工具调用、两个并行调用、工具结果之后的回答、一个接近其上下文窗口的长提示词（最多 16k 个词元），以及在服务器表示支持图像时发送一张图像。测试报告会说明实际发生了什么、消耗了多少词元，以及它设置了上方的哪些选项。</translation>
    </message>
    <message>
        <source>Cancel the model test</source>
        <translation>取消模型测试</translation>
    </message>
    <message>
        <source>Model test progress</source>
        <translation>模型测试进度</translation>
    </message>
    <message>
        <source>Report card</source>
        <translation>测试报告</translation>
    </message>
    <message>
        <source>Tested %1: %2</source>
        <translation>已于 %1 测试：%2</translation>
    </message>
    <message>
        <source>Choose a model to test first.</source>
        <translation>请先选择要测试的模型。</translation>
    </message>
    <message>
        <source>Asking the server about the model…</source>
        <translation>正在向服务器询问该模型…</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3…</source>
        <translation>第 %1 步，共 %2 步：%3…</translation>
    </message>
    <message>
        <source>The model did not answer: %1</source>
        <translation>模型没有回答：%1</translation>
    </message>
    <message>
        <source>Done: %1 tokens sent. Nothing above needed changing.</source>
        <translation>完成：已发送 %1 个词元。上方设置无需更改。</translation>
    </message>
    <message>
        <source>Done: %1 tokens sent. Set above (kept when you press OK): %2.</source>
        <translation>完成：已发送 %1 个词元。已在上方设置（按“确定”后保留）：%2。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::RecommendedModels</name>
    <message>
        <source>The smallest that calls tools: quick on any computer, for simple sums and plots.</source>
        <translation>能调用工具的最小模型：在任何计算机上都很快，适合简单的计算和绘图。</translation>
    </message>
    <message>
        <source>Small and steady with Python: a good start on a laptop.</source>
        <translation>小巧，使用 Python 稳定：适合在笔记本电脑上入门。</translation>
    </message>
    <message>
        <source>Writes and fixes code well; calls tools reliably.</source>
        <translation>擅长编写和修复代码；调用工具可靠。</translation>
    </message>
    <message>
        <source>Thinks before it answers; strong at tool calls and analysis.</source>
        <translation>回答前会先思考；擅长工具调用和分析。</translation>
    </message>
    <message>
        <source>OpenAI&apos;s open model: the best tool use here, for 16 GB of memory or more.</source>
        <translation>OpenAI 的开放模型：这里工具使用能力最强的模型，需要 16 GB 或更多内存。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::RemoteFileSync</name>
    <message>
        <source>Not every file of the conversation reached the sandbox: %1</source>
        <translation>并非对话的所有文件都已送达沙箱：%1</translation>
    </message>
    <message>
        <source>Files deleted from the conversation may still be in the sandbox: %1</source>
        <translation>已从对话中删除的文件可能仍在沙箱中：%1</translation>
    </message>
    <message>
        <source>Not every file of the conversation reached the sandbox: it stopped.</source>
        <translation>对话的文件没有全部送达沙箱：沙箱已停止。</translation>
    </message>
    <message>
        <source>The sandbox stopped reading the files sent to it and was replaced.</source>
        <translation>沙箱停止读取发送给它的文件，已被替换。</translation>
    </message>
    <message>
        <source>Not every file of the conversation reached the sandbox: it stopped reading them.</source>
        <translation>对话的文件没有全部送达沙箱：沙箱停止读取它们了。</translation>
    </message>
    <message>
        <source>The sandbox went while its files came.</source>
        <translation>沙箱在其文件传来时消失了。</translation>
    </message>
    <message>
        <source>The files took longer than %1 s to come from the sandbox; the copy was stopped.</source>
        <translation>从沙箱传来文件的时间超过了 %1 秒；复制已停止。</translation>
    </message>
    <message>
        <source>The sandbox did not send its files.</source>
        <translation>沙箱没有发送其文件。</translation>
    </message>
    <message>
        <source>The files from the sandbox arrived damaged (a piece that is not base64).</source>
        <translation>从沙箱传来的文件已损坏（其中一段不是 base64）。</translation>
    </message>
    <message>
        <source>The sandbox sent more than the files asked for can hold; the copy was stopped.</source>
        <translation>沙箱发送的内容超过了所请求文件能容纳的大小；复制已停止。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::RunnerImage</name>
    <message>
        <source>Docker is not installed here, so llama-server cannot run in a container: install llama.cpp&apos;s server (llama-server) instead and set its path in Settings › Models.</source>
        <translation>本机未安装 Docker，因此 llama-server 无法在容器中运行：请改为安装 llama.cpp 的服务器（llama-server），并在“设置 › 模型”中指定其路径。</translation>
    </message>
    <message>
        <source>Getting llama-server was cancelled.</source>
        <translation>已取消获取 llama-server。</translation>
    </message>
    <message>
        <source>Pulling llama.cpp&apos;s server image %1 from %2…</source>
        <translation>正在从 %2 拉取 llama.cpp 的服务器镜像 %1…</translation>
    </message>
    <message>
        <source>The registry %1 cannot be reached from this computer.</source>
        <translation>无法从本机连接到镜像仓库 %1。</translation>
    </message>
    <message>
        <source>The registry %1 did not give %2 (%3).</source>
        <translation>镜像仓库 %1 没有提供 %2（%3）。</translation>
    </message>
    <message>
        <source>Checking that its llama-server starts…</source>
        <translation>正在检查其中的 llama-server 能否启动…</translation>
    </message>
    <message>
        <source>The image %1 does not start llama-server as Sandpiper runs it (%2).</source>
        <translation>按 Sandpiper 的运行方式，镜像 %1 无法启动 llama-server（%2）。</translation>
    </message>
    <message>
        <source>The image %1 could not be tagged %2 (%3).</source>
        <translation>无法为镜像 %1 打上标签 %2（%3）。</translation>
    </message>
    <message>
        <source>llama-server is ready in the image %1 (llama.cpp&apos;s %2).</source>
        <translation>llama-server 已在镜像 %1 中就绪（来自 llama.cpp 的 %2）。</translation>
    </message>
    <message>
        <source>%1 The recipe to build the image from Debian&apos;s packages (sandbox/llama/build-image.sh) is missing: reinstall Sandpiper, or install llama.cpp&apos;s server (llama-server) and set its path in Settings › Models.</source>
        <translation>%1 缺少从 Debian 软件包构建镜像的脚本（sandbox/llama/build-image.sh）：请重新安装 Sandpiper，或安装 llama.cpp 的服务器（llama-server）并在“设置 › 模型”中指定其路径。</translation>
    </message>
    <message>
        <source>%1 To build the image from Debian&apos;s llama.cpp-tools instead, install mmdebstrap (sudo apt install mmdebstrap) and press “Get llama-server for Docker” again. Or install llama.cpp&apos;s server yourself (llama-server, package llama.cpp-tools in Debian sid) and set its path in Settings › Models.</source>
        <translation>%1 若要改为从 Debian 的 llama.cpp-tools 构建镜像，请安装 mmdebstrap（sudo apt install mmdebstrap），然后再次点击“为 Docker 获取 llama-server”。也可以自行安装 llama.cpp 的服务器（llama-server，Debian sid 中的 llama.cpp-tools 软件包），并在“设置 › 模型”中指定其路径。</translation>
    </message>
    <message>
        <source>Building the image from Debian&apos;s llama.cpp-tools with mmdebstrap (a few minutes)…</source>
        <translation>正在用 mmdebstrap 从 Debian 的 llama.cpp-tools 构建镜像（需要几分钟）…</translation>
    </message>
    <message>
        <source>%1 Building the image from Debian&apos;s packages failed too: %2</source>
        <translation>%1 从 Debian 软件包构建镜像也失败了：%2</translation>
    </message>
    <message>
        <source>llama-server is ready in the image %1 (Debian&apos;s llama.cpp-tools).</source>
        <translation>llama-server 已在镜像 %1 中就绪（来自 Debian 的 llama.cpp-tools）。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message numerus="yes">
        <source>Nothing was heard from it for %n second(s).</source>
        <translation>
            <numerusform>已有 %n 秒没有收到它的任何输出。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing was heard from it for %n minute(s).</source>
        <translation>
            <numerusform>已有 %n 分钟没有收到它的任何输出。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>It took longer than %n minute(s).</source>
        <translation>
            <numerusform>耗时超过了 %n 分钟。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxFigure</name>
    <message>
        <source>The figure “%1” is %2 × %3 pixels, larger than the %4 × %4 pixels Sandpiper shows.</source>
        <translation>图“%1”为 %2 × %3 像素，超过了 Sandpiper 显示的上限 %4 × %4 像素。</translation>
    </message>
    <message>
        <source>The figure “%1” is not a PNG image.</source>
        <translation>图“%1”不是 PNG 图片。</translation>
    </message>
    <message>
        <source>The figure “%1” is damaged: its end is malformed.</source>
        <translation>图“%1”已损坏：其结尾格式不正确。</translation>
    </message>
    <message>
        <source>The figure “%1” is cut short: the PNG file ends before its last part.</source>
        <translation>图“%1”不完整：PNG 文件在最后一部分之前就结束了。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxFileActions</name>
    <message>
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>“%1” was not opened. %2</source>
        <translation>未打开“%1”。%2</translation>
    </message>
    <message>
        <source>“%1” is of the type %2. Sandpiper does not know whether opening this type can run code in it. Open it anyway?</source>
        <translation>“%1”的类型为 %2。Sandpiper 不确定打开这种类型是否会运行其中的代码。仍要打开吗？</translation>
    </message>
    <message>
        <source>“%1” is of the type %2. Opening it could run it, so Sandpiper does not open it.</source>
        <translation>“%1”的类型为 %2。打开它可能会运行它，因此 Sandpiper 不会打开它。</translation>
    </message>
    <message>
        <source>Show in Folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Show the file in its folder</source>
        <translation>在所在文件夹中显示该文件</translation>
    </message>
    <message>
        <source>View as Text</source>
        <translation>以文本查看</translation>
    </message>
    <message>
        <source>View the file as plain text</source>
        <translation>以纯文本查看该文件</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open the file with the desktop&apos;s viewer</source>
        <translation>用桌面的查看器打开该文件</translation>
    </message>
    <message>
        <source>“%1” was not opened: a copy could not be written to %2.</source>
        <translation>未打开“%1”：无法将副本写入 %2。</translation>
    </message>
    <message>
        <source>No application on this desktop opens “%1”.</source>
        <translation>此桌面上没有能打开“%1”的应用程序。</translation>
    </message>
    <message>
        <source>%1 (as text)</source>
        <translation>%1（文本）</translation>
    </message>
    <message>
        <source>Content of the file as text</source>
        <translation>以文本显示的文件内容</translation>
    </message>
    <message>
        <source>[… the rest of the file, %1 in all, is not shown]</source>
        <translation>[… 文件的其余部分未显示，共 %1]</translation>
    </message>
    <message>
        <source>Save file</source>
        <translation>保存文件</translation>
    </message>
    <message>
        <source>“%1” was not saved. %2</source>
        <translation>未保存“%1”。%2</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxFileRow</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>Save %1</source>
        <translation>保存 %1</translation>
    </message>
    <message>
        <source>%1 (%2, being copied from the Docker engine…)</source>
        <translation>%1（%2，正在从 Docker 引擎复制…）</translation>
    </message>
    <message>
        <source>%1 (%2, on the Docker engine)</source>
        <translation>%1（%2，在 Docker 引擎上）</translation>
    </message>
    <message>
        <source>Kept in the sandbox on the Docker engine: it is copied here when you open or save it.</source>
        <translation>保存在 Docker 引擎上的沙箱中：打开或保存时才会复制到这里。</translation>
    </message>
    <message>
        <source>Copy from the Docker engine</source>
        <translation>从 Docker 引擎复制</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxFileType</name>
    <message>
        <source>an executable file, %1</source>
        <translation>可执行文件，%1</translation>
    </message>
    <message>
        <source>%1, but its content looks like %2 (%3)</source>
        <translation>%1，但其内容看起来是 %2（%3）</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxFolder</name>
    <message>
        <source>a folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>a named pipe (FIFO)</source>
        <translation>命名管道（FIFO）</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>a symbolic link</source>
        <translation>符号链接</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>the name is empty</source>
        <translation>名称为空</translation>
    </message>
    <message>
        <source>it is an absolute path</source>
        <translation>它是绝对路径</translation>
    </message>
    <message>
        <source>it contains a NUL character</source>
        <translation>它包含 NUL 字符</translation>
    </message>
    <message>
        <source>it contains a control character</source>
        <translation>它包含控制字符</translation>
    </message>
    <message>
        <source>it contains a control character of text direction, which makes the name read otherwise</source>
        <translation>它包含控制文字方向的字符，会让名称看起来不同于实际</translation>
    </message>
    <message>
        <source>it is too long</source>
        <translation>它太长了</translation>
    </message>
    <message>
        <source>it has an empty or “.” component</source>
        <translation>它含有空的或“.”的路径部分</translation>
    </message>
    <message>
        <source>it goes up with “..”</source>
        <translation>它用“..”向上跳出</translation>
    </message>
    <message>
        <source>“%1” is not a name inside the conversation&apos;s folder: %2.</source>
        <translation>“%1”不是对话文件夹内的名称：%2。</translation>
    </message>
    <message>
        <source>The conversation&apos;s folder %1 cannot be opened: %2.</source>
        <translation>无法打开对话的文件夹 %1：%2。</translation>
    </message>
    <message>
        <source>“%1” is or goes through a symbolic link; Sandpiper does not follow links out of the sandbox.</source>
        <translation>“%1”是或经过一个符号链接；Sandpiper 不会跟随链接离开沙箱。</translation>
    </message>
    <message>
        <source>“%1” does not exist in the conversation&apos;s folder.</source>
        <translation>对话的文件夹中不存在“%1”。</translation>
    </message>
    <message>
        <source>“%1” is not a regular file.</source>
        <translation>“%1”不是普通文件。</translation>
    </message>
    <message>
        <source>“%1” cannot be read: %2.</source>
        <translation>无法读取“%1”：%2。</translation>
    </message>
    <message>
        <source>“%1” is not a regular file but %2.</source>
        <translation>“%1”不是普通文件，而是%2。</translation>
    </message>
    <message>
        <source>“%1” is too large (%2; the limit is %3).</source>
        <translation>“%1”太大了（%2；上限为 %3）。</translation>
    </message>
    <message>
        <source>“%1” is too large (the limit is %2).</source>
        <translation>“%1”太大了（上限为 %2）。</translation>
    </message>
    <message>
        <source>%1 needs %2, but only %3 are free there.</source>
        <translation>%1 需要 %2，但那里只剩 %3。</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>%1 could not be removed completely: %2.</source>
        <translation>无法完全删除 %1：%2。</translation>
    </message>
    <message>
        <source>“%1” cannot be a file name in the conversation&apos;s folder: %2.</source>
        <translation>“%1”不能作为对话文件夹中的文件名：%2。</translation>
    </message>
    <message>
        <source>it contains “/”</source>
        <translation>它包含“/”</translation>
    </message>
    <message>
        <source>%1 cannot be created: %2.</source>
        <translation>无法创建 %1：%2。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxImage</name>
    <message>
        <source>“%1” is not an image Sandpiper shows (PNG, JPEG, GIF, BMP or WebP).</source>
        <translation>“%1”不是 Sandpiper 显示的图片格式（PNG、JPEG、GIF、BMP 或 WebP）。</translation>
    </message>
    <message>
        <source>“%1” could not be read as an image: %2.</source>
        <translation>无法将“%1”读取为图片：%2。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxSession</name>
    <message>
        <source>The code did not stop when interrupted, so its sandbox was replaced: variables and imports from earlier were lost.</source>
        <translation>代码在中断后未能停止，因此已替换其沙箱：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <source>The sandbox had stopped after %1 min without use.</source>
        <translation>沙箱因闲置 %1 分钟而已停止。</translation>
    </message>
    <message>
        <source>The sandbox did not start within %1 s.</source>
        <translation>沙箱未能在 %1 秒内启动。</translation>
    </message>
    <message>
        <source>The sandbox stopped answering and was replaced.</source>
        <translation>沙箱停止响应，已被替换。</translation>
    </message>
    <message>
        <source>The kernel was restarted: variables and imports from earlier were lost.</source>
        <translation>内核已重启：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <source>The conversation was closed while the code ran.</source>
        <translation>代码运行时对话被关闭了。</translation>
    </message>
    <message>
        <source>The sandbox was restarted with network access: earlier variables and imports were lost.</source>
        <translation>沙箱已以联网模式重启：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <source>The sandbox was restarted without network access: earlier variables and imports were lost.</source>
        <translation>沙箱已以断网模式重启：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <source>The disk holding the conversation&apos;s files has less than %1 free; the execution was stopped.</source>
        <translation>存放对话文件的磁盘剩余空间不足 %1；执行已停止。</translation>
    </message>
    <message>
        <source>The conversation&apos;s files reached the %1 limit; the execution was stopped. The files are kept for you to look at or delete.</source>
        <translation>对话的文件达到了 %1 的上限；执行已停止。文件已保留，供你查看或删除。</translation>
    </message>
    <message>
        <source>The conversation&apos;s files reached the %1 limit while no code was running (code left running in the background kept writing), so the sandbox was restarted. The files are kept for you to look at or delete.</source>
        <translation>在没有代码运行时，对话的文件达到了 %1 的上限（留在后台运行的代码仍在写入），因此沙箱已重启。文件已保留，供你查看或删除。</translation>
    </message>
    <message>
        <source>The code kept writing after it was stopped, so its sandbox was replaced: variables and imports from earlier were lost.</source>
        <translation>代码在被停止后仍在写入，因此它的沙箱已被替换：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <source>The conversation&apos;s files reached the %1 limit; the code could not write more. The files are kept for you to look at or delete.</source>
        <translation>对话的文件已达到 %1 的上限；代码无法再写入。文件已保留，供你查看或删除。</translation>
    </message>
    <message>
        <source>The previous kernel stopped (%1); variables and imports from earlier were lost.</source>
        <translation>之前的内核已停止（%1）；先前的变量和导入已丢失。</translation>
    </message>
    <message>
        <source>The sandbox stopped after %1 min without use; files it kept could not be copied here first and are gone: %2</source>
        <translation>沙箱在闲置 %1 分钟后停止；它保存的文件未能先复制到这里，已经丢失：%2</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxSettingsPage</name>
    <message>
        <source>Not checked yet.</source>
        <translation>尚未检查。</translation>
    </message>
    <message>
        <source>Chec&amp;k engine</source>
        <translation>检查引擎(&amp;k)</translation>
    </message>
    <message>
        <source>&amp;Build image</source>
        <translation>构建镜像(&amp;B)</translation>
    </message>
    <message>
        <source>Allow &amp;network access in new conversations</source>
        <translation>在新对话中允许网络访问(&amp;n)</translation>
    </message>
    <message>
        <source>Restore variables a&amp;utomatically when a kernel is new</source>
        <translation>内核为新时自动恢复变量(&amp;u)</translation>
    </message>
    <message>
        <source>&amp;Remove all sandbox containers</source>
        <translation>删除所有沙箱容器(&amp;R)</translation>
    </message>
    <message>
        <source>Sandbox image</source>
        <translation>沙箱镜像</translation>
    </message>
    <message>
        <source>Build the sandbox image</source>
        <translation>构建沙箱镜像</translation>
    </message>
    <message>
        <source>Image build progress</source>
        <translation>镜像构建进度</translation>
    </message>
    <message>
        <source>Show build &amp;log</source>
        <translation>显示构建日志(&amp;l)</translation>
    </message>
    <message>
        <source>Show build log</source>
        <translation>显示构建日志</translation>
    </message>
    <message>
        <source>Image build log</source>
        <translation>镜像构建日志</translation>
    </message>
    <message>
        <source>Memory limit</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <source>As Docker writes it, such as 512m or 2g.</source>
        <translation>按 Docker 的写法，例如 512m 或 2g。</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU 数</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Execution timeout in seconds</source>
        <translation>执行超时（秒）</translation>
    </message>
    <message>
        <source>Network access by default</source>
        <translation>默认允许网络访问</translation>
    </message>
    <message>
        <source>Restore variables automatically</source>
        <translation>自动恢复变量</translation>
    </message>
    <message>
        <source>After a restart, an idle stop or a crash, the conversation&apos;s earlier successful cells run again before the model&apos;s next code. Cells that write files are left out; “Restore variables” asks about them.</source>
        <translation>在重启、空闲停止或崩溃之后，对话中之前成功的单元格会在模型的下一段代码之前重新运行。写入文件的单元格会被略过；“恢复变量”会就它们询问你。</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Stop idle sandboxes after minutes</source>
        <translation>空闲多少分钟后停止沙箱</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Disk space for a conversation&apos;s files in MiB</source>
        <translation>对话文件可占用的磁盘空间（MiB）</translation>
    </message>
    <message>
        <source>What the files of one conversation (uploads, figures, what the code writes) may take. Code that writes more is stopped, and larger uploads are refused; the files stay. 0 means no limit.</source>
        <translation>一个对话的文件（上传、图表、代码写入的内容）可占用的空间。写入更多内容的代码会被停止，更大的上传会被拒绝；文件会保留。0 表示不限。</translation>
    </message>
    <message>
        <source>Figures kept per run</source>
        <translation>每次运行保留的图数</translation>
    </message>
    <message>
        <source>Figures beyond this number in one run are counted but neither saved nor shown.</source>
        <translation>一次运行中超过此数量的图只计数，既不保存也不显示。</translation>
    </message>
    <message>
        <source>Docker engine</source>
        <translation>Docker 引擎</translation>
    </message>
    <message>
        <source>Where new sandboxes start: the engine the docker command is set up for (DOCKER_HOST, &quot;docker context use&quot;), one of its contexts, or an address you type (ssh://user@host, tcp://host:2376). A remote engine gets the conversation&apos;s files copied in and out; sandboxes that run keep their engine.</source>
        <translation>新沙箱在哪里启动：docker 命令所配置的引擎（DOCKER_HOST、“docker context use”）、它的某个上下文，或您输入的地址（ssh://user@host、tcp://host:2376）。远程引擎会来回复制对话的文件；正在运行的沙箱保留其引擎。</translation>
    </message>
    <message>
        <source>As the docker command is set up</source>
        <translation>按 docker 命令的配置</translation>
    </message>
    <message>
        <source>Docker engine status</source>
        <translation>Docker 引擎状态</translation>
    </message>
    <message>
        <source>Check the Docker engine</source>
        <translation>检查 Docker 引擎</translation>
    </message>
    <message>
        <source>Remove all sandbox containers</source>
        <translation>删除所有沙箱容器</translation>
    </message>
    <message>
        <source>&amp;Engine:</source>
        <translation>引擎(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Image:</source>
        <translation>镜像(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Memory:</source>
        <translation>内存(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;CPUs:</source>
        <translation>CPU 数(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Timeout per run:</source>
        <translation>每次运行的超时(&amp;T)：</translation>
    </message>
    <message>
        <source>Stop when idle &amp;after:</source>
        <translation>空闲多久后停止(&amp;a)：</translation>
    </message>
    <message>
        <source>&amp;Files per conversation:</source>
        <translation>每个对话的文件(&amp;F)：</translation>
    </message>
    <message>
        <source>Fi&amp;gures per run:</source>
        <translation>每次运行的图数(&amp;g)：</translation>
    </message>
    <message>
        <source>Context %1</source>
        <translation>上下文 %1</translation>
    </message>
    <message>
        <source>Context %1 (%2)</source>
        <translation>上下文 %1（%2）</translation>
    </message>
    <message>
        <source>Removing…</source>
        <translation>正在删除…</translation>
    </message>
    <message>
        <source>Sandbox containers removed: %1.</source>
        <translation>已删除的沙箱容器：%1。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxStatus</name>
    <message>
        <source>Docker state</source>
        <translation>Docker 状态</translation>
    </message>
    <message>
        <source>Sandbox status</source>
        <translation>沙箱状态</translation>
    </message>
    <message>
        <source>Python: off</source>
        <translation>Python：已关闭</translation>
    </message>
    <message>
        <source>Docker: checking…</source>
        <translation>Docker：正在检查…</translation>
    </message>
    <message>
        <source>Docker: unavailable</source>
        <translation>Docker：不可用</translation>
    </message>
    <message>
        <source>Python: running</source>
        <translation>Python：运行中</translation>
    </message>
    <message>
        <source>Docker: ready</source>
        <translation>Docker：就绪</translation>
    </message>
    <message>
        <source>%1 (remote, %2 ms)</source>
        <translation>%1（远程，%2 毫秒）</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SavedFileNotice</name>
    <message>
        <source>Saved file</source>
        <translation>已保存的文件</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Show the saved file in its folder</source>
        <translation>在所在文件夹中显示已保存的文件</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Dismiss the note about the saved file</source>
        <translation>关闭关于已保存文件的提示</translation>
    </message>
    <message>
        <source>Saved “%1” in %2.</source>
        <translation>已将“%1”保存到 %2。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SessionManager</name>
    <message>
        <source>The provider &quot;%1&quot; is not one this version of Sandpiper knows.</source>
        <translation>此版本的 Sandpiper 不认识服务提供方“%1”。</translation>
    </message>
    <message>
        <source>%1 has no server address.</source>
        <translation>%1 没有服务器地址。</translation>
    </message>
    <message>
        <source>No API key for %1 was found.</source>
        <translation>未找到 %1 的 API 密钥。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::Settings</name>
    <message>
        <source>The settings file %1 could not be read. Sandpiper uses the defaults and leaves the file as it is; changes last until you quit.</source>
        <translation>无法读取设置文件 %1。Sandpiper 将使用默认设置，并保留该文件不变；所做的更改在退出前有效。</translation>
    </message>
    <message>
        <source>The settings file %1 was written by a newer version of Sandpiper. This version uses the defaults and leaves the file as it is; changes last until you quit.</source>
        <translation>设置文件 %1 由更新版本的 Sandpiper 写入。此版本将使用默认设置，并保留该文件不变；所做的更改在退出前有效。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SettingsDialog</name>
    <message>
        <source>Changes apply to new conversations; the theme changes at once.</source>
        <translation>更改将应用于新对话；主题会立即更改。</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Settings sections</source>
        <translation>设置分区</translation>
    </message>
    <message>
        <source>&amp;Providers</source>
        <translation>服务商(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Sandbox</source>
        <translation>沙箱(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;MCP</source>
        <translation>&amp;MCP</translation>
    </message>
    <message>
        <source>&amp;Appearance</source>
        <translation>外观(&amp;A)</translation>
    </message>
    <message>
        <source>System p&amp;rompt</source>
        <translation>系统提示词(&amp;r)</translation>
    </message>
    <message>
        <source>Mode&amp;ls</source>
        <translation>模型(&amp;l)</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SvgFigure</name>
    <message>
        <source>Drawing the SVG image…</source>
        <translation>正在绘制 SVG 图像…</translation>
    </message>
    <message numerus="yes">
        <source>%n external reference(s) were not loaded: the figure shows only what it contains.</source>
        <translation>
            <numerusform>%n 个外部引用未被加载：图中只显示其自身包含的内容。</numerusform>
        </translation>
    </message>
    <message>
        <source>SVG image</source>
        <translation>SVG 图像</translation>
    </message>
    <message>
        <source>The SVG image could not be drawn.</source>
        <translation>无法绘制该 SVG 图像。</translation>
    </message>
    <message>
        <source>SVG image not drawn</source>
        <translation>未绘制的 SVG 图像</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SvgSanitizer</name>
    <message>
        <source>The SVG image is %1, larger than the %2 that Sandpiper draws.</source>
        <translation>该 SVG 图像大小为 %1，超过了 Sandpiper 绘制的上限 %2。</translation>
    </message>
    <message>
        <source>Reading the SVG image took longer than %1 ms; it is not drawn.</source>
        <translation>读取该 SVG 图像耗时超过 %1 毫秒；未绘制。</translation>
    </message>
    <message>
        <source>The SVG image nests its parts more than %1 deep; it is not drawn.</source>
        <translation>该 SVG 图像的嵌套深度超过 %1 层；未绘制。</translation>
    </message>
    <message>
        <source>The SVG image has more than %1 parts; it is not drawn.</source>
        <translation>该 SVG 图像包含超过 %1 个元素；未绘制。</translation>
    </message>
    <message>
        <source>This is no SVG image: its outermost element is &lt;%1&gt;.</source>
        <translation>这不是 SVG 图像：其最外层元素是 &lt;%1&gt;。</translation>
    </message>
    <message>
        <source>The SVG image declares XML entities, which Sandpiper does not expand; it is not drawn.</source>
        <translation>该 SVG 图像声明了 XML 实体，Sandpiper 不会展开它们；未绘制。</translation>
    </message>
    <message>
        <source>The SVG image refers to the XML entity “%1”, which Sandpiper does not expand; it is not drawn.</source>
        <translation>该 SVG 图像引用了 XML 实体“%1”，Sandpiper 不会展开它；未绘制。</translation>
    </message>
    <message>
        <source>The SVG image is not well-formed XML (line %1, column %2): %3.</source>
        <translation>该 SVG 图像不是格式正确的 XML（第 %1 行，第 %2 列）：%3。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SystemPromptSettingsPage</name>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>Empty: the default system prompt</source>
        <translation>留空：使用默认系统提示词</translation>
    </message>
    <message>
        <source>Reset to &amp;default</source>
        <translation>恢复默认(&amp;d)</translation>
    </message>
    <message>
        <source>Reset the system prompt to the default</source>
        <translation>将系统提示词恢复为默认值</translation>
    </message>
</context>
<context>
    <name>Sandpiper::TarReader</name>
    <message>
        <source>%1 could not be written on this machine: %2</source>
        <translation>无法在本机上写入 %1：%2</translation>
    </message>
    <message>
        <source>The files from the sandbox arrived damaged (a tar header with a wrong checksum).</source>
        <translation>来自沙箱的文件已损坏（tar 头的校验和错误）。</translation>
    </message>
    <message>
        <source>The files from the sandbox arrived damaged (a tar header without a size).</source>
        <translation>来自沙箱的文件已损坏（tar 头没有大小）。</translation>
    </message>
    <message>
        <source>The files from the sandbox arrived damaged (a tar header of %1).</source>
        <translation>来自沙箱的文件已损坏（%1 的 tar 头）。</translation>
    </message>
    <message>
        <source>a symbolic link</source>
        <translation>符号链接</translation>
    </message>
    <message>
        <source>a hard link</source>
        <translation>硬链接</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>%1 is %2; it was not copied from the sandbox.</source>
        <translation>%1 是%2；它没有从沙箱复制。</translation>
    </message>
    <message>
        <source>%1 was not copied from the sandbox: %2 is not a folder on this machine.</source>
        <translation>%1 没有从沙箱复制：%2 在本机上不是文件夹。</translation>
    </message>
    <message>
        <source>%1 could not be written on this machine: its folder cannot be made.</source>
        <translation>无法在本机上写入 %1：无法创建其文件夹。</translation>
    </message>
    <message>
        <source>%1 (%2) was not copied from the sandbox: the conversation&apos;s files would pass their %3 limit.</source>
        <translation>%1（%2）没有从沙箱复制：对话的文件将超过 %3 的上限。</translation>
    </message>
    <message>
        <source>%1 was not copied from the sandbox: something that is not a regular file has its name here.</source>
        <translation>%1 没有从沙箱复制：此处有一个同名但不是普通文件的对象。</translation>
    </message>
    <message>
        <source>The copy of %1 from the sandbox broke off; nothing of it was kept.</source>
        <translation>从沙箱复制 %1 时中断；没有保留任何部分。</translation>
    </message>
    <message>
        <source>The files from the sandbox broke off.</source>
        <translation>来自沙箱的文件传输中断。</translation>
    </message>
    <message>
        <source>%1 arrived from the sandbox without being asked for (or a second time); it was not copied.</source>
        <translation>%1 未经请求（或重复）从沙箱传来；未复制它。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ToolCallCard</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Tool call %1</source>
        <translation>工具调用 %1</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Reason for denying</source>
        <translation>拒绝原因</translation>
    </message>
    <message>
        <source>%1 · proposed</source>
        <translation>%1 · 已提议</translation>
    </message>
    <message>
        <source>Running %1…</source>
        <translation>正在运行 %1…</translation>
    </message>
    <message>
        <source>%1 · waiting for approval</source>
        <translation>%1 · 等待批准</translation>
    </message>
    <message>
        <source>Show the call and its output</source>
        <translation>显示调用及其输出</translation>
    </message>
    <message>
        <source>Arguments of %1</source>
        <translation>%1 的参数</translation>
    </message>
    <message>
        <source>Latest output</source>
        <translation>最新输出</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Edit before running</source>
        <translation>运行前编辑</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Running %1… %2</source>
        <translation>正在运行 %1… %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 of %2: %3</source>
        <translation>%1 / %2：%3</translation>
    </message>
    <message>
        <source>Deny running %1</source>
        <translation>拒绝运行 %1</translation>
    </message>
    <message>
        <source>Run as edited</source>
        <translation>按修改后的内容运行</translation>
    </message>
    <message>
        <source>Progress of %1</source>
        <translation>%1 的进度</translation>
    </message>
    <message>
        <source>%1 · interrupted</source>
        <translation>%1 · 已中断</translation>
    </message>
    <message>
        <source>%1 · not run</source>
        <translation>%1 · 未运行</translation>
    </message>
    <message>
        <source>Why not? (optional)</source>
        <translation>为什么不？（可选）</translation>
    </message>
    <message>
        <source>The reason goes to the model with the denial. Enter denies.</source>
        <translation>原因会随拒绝一起发给模型。按 Enter 拒绝。</translation>
    </message>
    <message>
        <source>Run it (Ctrl+Enter)</source>
        <translation>运行（Ctrl+Enter）</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ToolSettingsPage</name>
    <message>
        <source>Run &amp;Python:</source>
        <translation>运行 Python(&amp;P)：</translation>
    </message>
    <message>
        <source>Search the &amp;web:</source>
        <translation>搜索网络(&amp;w)：</translation>
    </message>
    <message>
        <source>&amp;Fetch pages:</source>
        <translation>获取网页(&amp;F)：</translation>
    </message>
    <message>
        <source>Draw &amp;charts:</source>
        <translation>绘制图表(&amp;c)：</translation>
    </message>
    <message>
        <source>Ask every time</source>
        <translation>每次都询问</translation>
    </message>
    <message>
        <source>Run without asking</source>
        <translation>直接运行，不询问</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>Approval for %1</source>
        <translation>%1 的批准方式</translation>
    </message>
    <message>
        <source>Maximum tool rounds per answer</source>
        <translation>每次回答的最大工具调用轮数</translation>
    </message>
    <message>
        <source>Maximum tool &amp;rounds:</source>
        <translation>最大工具调用轮数(&amp;r)：</translation>
    </message>
    <message>
        <source>Automatic (from the model&apos;s context window)</source>
        <translation>自动（根据模型的上下文窗口）</translation>
    </message>
    <message>
        <source> characters</source>
        <translation> 个字符</translation>
    </message>
    <message>
        <source>Longest tool result for the model</source>
        <translation>发给模型的工具结果的最大长度</translation>
    </message>
    <message>
        <source>Everything a tool&apos;s result tells the model (output, displays, file names, errors) shares this many characters; what is left out is counted.</source>
        <translation>工具结果告诉模型的全部内容（输出、显示内容、文件名、错误）共用这么多字符；未包含的部分会被计数说明。</translation>
    </message>
    <message>
        <source>Longest tool r&amp;esult:</source>
        <translation>工具结果最大长度(&amp;e)：</translation>
    </message>
    <message>
        <source>Web search backend</source>
        <translation>网络搜索后端</translation>
    </message>
    <message>
        <source>Search &amp;backend:</source>
        <translation>搜索后端(&amp;b)：</translation>
    </message>
    <message>
        <source>SearXNG URL</source>
        <translation>SearXNG URL</translation>
    </message>
    <message>
        <source>Sear&amp;XNG URL:</source>
        <translation>SearXNG URL(&amp;X)：</translation>
    </message>
</context>
<context>
    <name>Sandpiper::TurnNotifier</name>
    <message>
        <source>Sandpiper</source>
        <translation>Sandpiper</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>回答失败。</translation>
    </message>
    <message>
        <source>The answer is ready.</source>
        <translation>回答已完成。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::WebFetcher</name>
    <message>
        <source>%1 redirected to %2. </source>
        <translation>%1 已重定向到 %2。</translation>
    </message>
    <message>
        <source>Only http and https addresses can be fetched, not %1.</source>
        <translation>只能获取 http 和 https 地址，不支持 %1。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid web address.</source>
        <translation>“%1”不是有效的网址。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Looking up the address of %1 took longer than %2 s.</source>
        <translation>解析 %1 的地址耗时超过 %2 秒。</translation>
    </message>
    <message>
        <source>The host %1 was not found (%2).</source>
        <translation>找不到主机 %1（%2）。</translation>
    </message>
    <message>
        <source>%1 is %2.</source>
        <translation>%1 是 %2。</translation>
    </message>
    <message>
        <source>%1 resolves to %2, %3.</source>
        <translation>%1 解析为 %2，%3。</translation>
    </message>
    <message>
        <source>Such addresses are never fetched.</source>
        <translation>此类地址一律不予获取。</translation>
    </message>
    <message>
        <source>Only public internet addresses are fetched.</source>
        <translation>仅获取公共互联网地址。</translation>
    </message>
    <message>
        <source>More than %1 redirects: %2. The page may redirect in a loop.</source>
        <translation>重定向超过 %1 次：%2。该页面可能存在循环重定向。</translation>
    </message>
    <message>
        <source>%1 did not answer within %2 s.</source>
        <translation>%1 未在 %2 秒内响应。</translation>
    </message>
    <message>
        <source>The page did not finish loading within %1 s.</source>
        <translation>页面未能在 %1 秒内加载完成。</translation>
    </message>
    <message>
        <source>%1 refused the connection.</source>
        <translation>%1 拒绝了连接。</translation>
    </message>
    <message>
        <source>The host %1 was not found.</source>
        <translation>找不到主机 %1。</translation>
    </message>
    <message>
        <source>The secure connection to %1 failed: %2</source>
        <translation>与 %1 的安全连接失败：%2</translation>
    </message>
    <message>
        <source>Network error with %1: %2</source>
        <translation>与 %1 通信时出现网络错误：%2</translation>
    </message>
</context>
<context>
    <name>Sandpiper::WelcomePage</name>
    <message>
        <source>Looks again for model servers on this computer (Ollama, LM Studio, a llama.cpp server) and for the models and llama-server Sandpiper can run itself.</source>
        <translation>再次查找本机上的模型服务器（Ollama、LM Studio、llama.cpp 服务器），以及 Sandpiper 自己能运行的模型和 llama-server。</translation>
    </message>
    <message>
        <source>&amp;Look again</source>
        <translation>重新查找(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Use OpenAI</source>
        <translation>使用 OpenAI(&amp;U)</translation>
    </message>
    <message>
        <source>Open &amp;settings…</source>
        <translation>打开设置(&amp;s)…</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <source>Welcome to Sandpiper</source>
        <translation>欢迎使用 Sandpiper</translation>
    </message>
    <message>
        <source>Look for local servers again</source>
        <translation>重新查找本地服务器</translation>
    </message>
    <message>
        <source>sk-…</source>
        <translation>sk-…</translation>
    </message>
    <message>
        <source>OpenAI API key</source>
        <translation>OpenAI API 密钥</translation>
    </message>
    <message>
        <source>Use OpenAI with this key</source>
        <translation>使用此密钥连接 OpenAI</translation>
    </message>
    <message>
        <source>Open settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <source>A model on this computer</source>
        <translation>本机上的模型</translation>
    </message>
    <message>
        <source>Or OpenAI</source>
        <translation>或使用 OpenAI</translation>
    </message>
    <message>
        <source>Paste an API key from platform.openai.com. It is kept in the system keychain.</source>
        <translation>粘贴来自 platform.openai.com 的 API 密钥。密钥将保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>Another provider or your own server?</source>
        <translation>使用其他服务商或自己的服务器？</translation>
    </message>
    <message>
        <source>Choose where the answers should come from; you can change it later in Settings (Ctrl+,).</source>
        <translation>请选择回答的来源；之后可以在设置中更改（Ctrl+,）。</translation>
    </message>
    <message>
        <source>Looking for Ollama, LM Studio, llama.cpp and vLLM on this computer…</source>
        <translation>正在本机上查找 Ollama、LM Studio、llama.cpp 和 vLLM…</translation>
    </message>
    <message>
        <source>No local server answered. Start Ollama, LM Studio, llama.cpp or vLLM and look again, or use a key below.</source>
        <translation>没有本地服务器响应。请启动 Ollama、LM Studio、llama.cpp 或 vLLM 后重新查找，或在下方使用密钥。</translation>
    </message>
    <message>
        <source>Found on this computer:</source>
        <translation>在本机上找到：</translation>
    </message>
    <message>
        <source>Use %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <source>%1 · models: %2</source>
        <translation>%1 · 模型：%2</translation>
    </message>
    <message>
        <source>&amp;Back to the chat</source>
        <translation>返回对话(&amp;B)</translation>
    </message>
    <message>
        <source>Back to the chat</source>
        <translation>返回对话</translation>
    </message>
    <message>
        <source>Set up a provider</source>
        <translation>设置服务提供方</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>下载进度</translation>
    </message>
    <message>
        <source>Download status</source>
        <translation>下载状态</translation>
    </message>
    <message>
        <source>Run %1 on this computer</source>
        <translation>在本机上运行 %1</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>calls tools</source>
        <translation>可调用工具</translation>
    </message>
    <message>
        <source>no tool calls</source>
        <translation>不调用工具</translation>
    </message>
    <message>
        <source>On this computer:</source>
        <translation>在本机上：</translation>
    </message>
    <message>
        <source>Download %1 and run it on this computer</source>
        <translation>下载 %1 并在本机上运行</translation>
    </message>
    <message>
        <source>%1 to download, %2 of memory. %3</source>
        <translation>需下载 %1，需要 %2 内存。%3</translation>
    </message>
    <message>
        <source>Sandpiper can run a model itself, without any other program:</source>
        <translation>Sandpiper 可以自己运行模型，无需任何其他程序：</translation>
    </message>
    <message>
        <source>Reading %1 on the Hugging Face hub…</source>
        <translation>正在 Hugging Face Hub 上读取 %1…</translation>
    </message>
    <message>
        <source>&amp;Run %1 here</source>
        <translation>在本机上运行 %1(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Download %1 and run it here</source>
        <translation>下载 %1 并在本机上运行(&amp;D)</translation>
    </message>
    <message>
        <source>Us&amp;e %1</source>
        <translation>使用 %1(&amp;e)</translation>
    </message>
    <message>
        <source>&amp;Try the download again</source>
        <translation>重试下载(&amp;T)</translation>
    </message>
    <message>
        <source>Cancel the download</source>
        <translation>取消下载</translation>
    </message>
    <message>
        <source>llama-server, which runs it, comes first: llama.cpp&apos;s server image for Docker, or one built from Debian&apos;s packages.</source>
        <translation>运行它所需的 llama-server 会先准备好：用于 Docker 的 llama.cpp 服务器镜像，或从 Debian 软件包构建的镜像。</translation>
    </message>
    <message>
        <source>No local server answered. To have Sandpiper run a model itself, install llama.cpp&apos;s server (llama-server) or Docker and look again; or use a key below.</source>
        <translation>没有本地服务器响应。若要让 Sandpiper 自己运行模型，请安装 llama.cpp 的服务器（llama-server）或 Docker 后重新查找；或在下方使用密钥。</translation>
    </message>
    <message>
        <source>&amp;Try again</source>
        <translation>重试(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Resume the download</source>
        <translation>继续下载(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel the download</source>
        <translation>取消下载(&amp;C)</translation>
    </message>
</context>
<context>
    <name>Schema</name>
    <message>
        <source>Recovered conversation %1</source>
        <translation>恢复的对话 %1</translation>
    </message>
    <message>
        <source>The database held messages, runs of code or attached files of a conversation %1 that was gone; they are kept in &quot;%2&quot;.</source>
        <translation>数据库中保存着已不存在的对话 %1 的消息、代码运行记录或附件；它们保存在“%2”中。</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) of code whose message was gone are kept with their conversation and shown on every branch of it.</source>
        <translation>
            <numerusform>%n 条所属消息已不存在的代码运行记录与其对话一起保留，并显示在该对话的每个分支上。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchIndex</name>
    <message>
        <source>The search did not work.</source>
        <translation>搜索失败。</translation>
    </message>
</context>
<context>
    <name>StoreDatabase</name>
    <message>
        <source>Sandpiper cannot create its data folder %1, so it cannot save conversations. Check that the folder can be written.</source>
        <translation>Sandpiper 无法创建其数据文件夹 %1，因此无法保存对话。请检查该文件夹是否可写。</translation>
    </message>
    <message>
        <source>Sandpiper cannot open its database %1: %2</source>
        <translation>Sandpiper 无法打开其数据库 %1：%2</translation>
    </message>
    <message>
        <source>The database %1 is not an SQLite file (it may have been damaged).</source>
        <translation>数据库 %1 不是 SQLite 文件（可能已损坏）。</translation>
    </message>
    <message>
        <source>The file %1 is an SQLite database of another program, not Sandpiper&apos;s.</source>
        <translation>文件 %1 是其他程序的 SQLite 数据库，不是 Sandpiper 的。</translation>
    </message>
    <message>
        <source>The database %1 is damaged (%2).</source>
        <translation>数据库 %1 已损坏（%2）。</translation>
    </message>
    <message>
        <source>Sandpiper could not move it aside to %1; move or remove it, then start Sandpiper again.</source>
        <translation>Sandpiper 无法将其移到 %1；请移动或删除它，然后重新启动 Sandpiper。</translation>
    </message>
    <message>
        <source>Sandpiper moved it to %1 but could not move the folder %2 aside.</source>
        <translation>Sandpiper 已将其移到 %1，但无法将文件夹 %2 移开。</translation>
    </message>
    <message>
        <source>It was moved to %1 and a new, empty database was created.</source>
        <translation>它已被移到 %1，并创建了一个新的空数据库。</translation>
    </message>
    <message>
        <source>The conversation folders were moved to %1.</source>
        <translation>对话文件夹已被移到 %1。</translation>
    </message>
    <message>
        <source>The version of the database could not be read.</source>
        <translation>无法读取数据库的版本。</translation>
    </message>
    <message>
        <source>The database %1 was written by a newer version of Sandpiper (schema %2; this version knows up to %3). Update Sandpiper to open it.</source>
        <translation>数据库 %1 由更新版本的 Sandpiper 写入（架构 %2；此版本最高支持 %3）。请更新 Sandpiper 后再打开。</translation>
    </message>
    <message>
        <source>The database could not be upgraded to version %1.</source>
        <translation>无法将数据库升级到版本 %1。</translation>
    </message>
    <message>
        <source>There is no conversation with the id %1.</source>
        <translation>没有 ID 为 %1 的对话。</translation>
    </message>
    <message>
        <source>The database is read-only; check that %1 can be written.</source>
        <translation>数据库为只读；请检查 %1 是否可写。</translation>
    </message>
    <message>
        <source>The disk holding %1 is full.</source>
        <translation>存放 %1 的磁盘已满。</translation>
    </message>
    <message>
        <source>The disk holding %1 could not be written (%2); it may be full.</source>
        <translation>无法写入存放 %1 的磁盘（%2）；磁盘可能已满。</translation>
    </message>
    <message>
        <source>The database file in %1 cannot be opened.</source>
        <translation>无法打开 %1 中的数据库文件。</translation>
    </message>
    <message>
        <source>The database is busy; is another Sandpiper using %1?</source>
        <translation>数据库正忙；是否有另一个 Sandpiper 正在使用 %1？</translation>
    </message>
    <message>
        <source>The database file is damaged (%1).</source>
        <translation>数据库文件已损坏（%1）。</translation>
    </message>
    <message>
        <source>SQLite reported: %1</source>
        <translation>SQLite 报告：%1</translation>
    </message>
</context>
<context>
    <name>TextCallParser</name>
    <message>
        <source>The model wrote a call to &quot;%1&quot; into its answer, but it has no tool of that name, so the call is shown as text.</source>
        <translation>模型在回答中写了对“%1”的调用，但没有该名称的工具，因此该调用以文本形式显示。</translation>
    </message>
    <message>
        <source>The model wrote a tool call into its answer without a tool name, so it is shown as text.</source>
        <translation>模型在回答中写了一个没有工具名称的工具调用，因此它以文本形式显示。</translation>
    </message>
    <message>
        <source>The model wrote a tool call into its answer that is not a JSON object, so it is shown as text.</source>
        <translation>模型在回答中写了一个不是 JSON 对象的工具调用，因此它以文本形式显示。</translation>
    </message>
    <message>
        <source>The model wrote an empty list of tool calls into its answer.</source>
        <translation>模型在回答中写了一个空的工具调用列表。</translation>
    </message>
    <message>
        <source>The model wrote a tool call into its answer that is not valid JSON, so it was not run; it is shown as text.</source>
        <translation>模型在回答中写了一个不是有效 JSON 的工具调用，因此没有运行；它以文本形式显示。</translation>
    </message>
    <message>
        <source>The model wrote a tool call into its answer in XML that could not be read, so it is shown as text.</source>
        <translation>模型在回答中用无法读取的 XML 写了一个工具调用，因此它以文本形式显示。</translation>
    </message>
    <message>
        <source>The model wrote a tool call into its answer that could not be read, so it is shown as text.</source>
        <translation>模型在回答中写了一个无法读取的工具调用，因此它以文本形式显示。</translation>
    </message>
    <message>
        <source>The model wrote a tool call into its answer as Python that could not be read, so it was not run; it is shown as text.</source>
        <translation>模型在回答中以无法读取的 Python 写了一个工具调用，因此没有运行；它以文本形式显示。</translation>
    </message>
</context>
<context>
    <name>TextDialect</name>
    <message>
        <source>The model wrote a tool call into its answer that could not be read, so it is shown as text.</source>
        <translation>模型在回答中写了一个无法读取的工具调用，因此它以文本形式显示。</translation>
    </message>
</context>
<context>
    <name>ToolPresenter</name>
    <message>
        <source>Always allow in this chat</source>
        <translation>在此对话中始终允许</translation>
    </message>
    <message>
        <source>Used %1</source>
        <translation>已使用 %1</translation>
    </message>
    <message>
        <source>%1 · failed</source>
        <translation>%1 · 失败</translation>
    </message>
</context>
<context>
    <name>TurnRecovery</name>
    <message>
        <source>The answers the last run left unfinished could not be recovered.</source>
        <translation>无法恢复上次运行未完成的回答。</translation>
    </message>
    <message>
        <source>The tool calls the last run left unanswered could not be recovered.</source>
        <translation>无法恢复上次运行未回应的工具调用。</translation>
    </message>
</context>
<context>
    <name>WebPresenter</name>
    <message>
        <source>web search</source>
        <translation>网页搜索</translation>
    </message>
    <message>
        <source>page reader</source>
        <translation>网页读取</translation>
    </message>
    <message>
        <source>Source %1: %2</source>
        <translation>来源 %1：%2</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Chat with language models that run code.</source>
        <translation>与能够运行代码的语言模型聊天。</translation>
    </message>
    <message>
        <source>Override a setting for this run.</source>
        <translation>仅在本次运行中覆盖某项设置。</translation>
    </message>
    <message>
        <source>Keep settings and data in DIR.</source>
        <translation>将设置和数据保存在 DIR 中。</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
</context>
</TS>
