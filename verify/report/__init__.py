"""Every writer of human output: the API's formats (``formats``), a claims run's Markdown and JSON
(``run_report``), HTML (``html_report``) and JUnit XML (``junit``), and the plots (``plot``, ``atlas_plot``)."""
